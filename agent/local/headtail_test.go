package local

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHeadTail(t *testing.T) {
	cases := []struct {
		name      string
		limit     int
		writes    []string
		want      string
		truncated bool
	}{
		{name: "under the limit", limit: 10, writes: []string{"abc", "def"}, want: "abcdef"},
		{name: "exactly the limit", limit: 6, writes: []string{"abcdef"}, want: "abcdef"},
		{name: "no limit", limit: 0, writes: []string{strings.Repeat("x", 100)}, want: strings.Repeat("x", 100)},
		{name: "middle dropped", limit: 6, writes: []string{"abc", "1234567", "xyz"},
			want: "abc\n\n[... 7 bytes of output omitted ...]\n\nxyz", truncated: true},
		{name: "many small writes", limit: 4, writes: strings.Split("abcdefghijklmnop", ""),
			want: "ab\n\n[... 12 bytes of output omitted ...]\n\nop", truncated: true},
		// "é" is two bytes; cuts must not split it.
		{name: "utf-8 boundaries", limit: 6, writes: []string{"aaé", strings.Repeat("-", 20), "éé"},
			want: "aa\n\n[... 24 bytes of output omitted ...]\n\né", truncated: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHeadTail(c.limit)
			for _, w := range c.writes {
				if n, err := h.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			got, truncated, _ := h.String()
			if got != c.want || truncated != c.truncated {
				t.Errorf("got %q (truncated %v), want %q (%v)", got, truncated, c.want, c.truncated)
			}
			if !utf8.ValidString(got) {
				t.Errorf("invalid UTF-8: %q", got)
			}
		})
	}
}
