package llmtest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestChunks(t *testing.T) {
	tests := []struct {
		s string
		n int
	}{
		{`{"path":"a.go"}`, 4}, {"äöü€𝄞", 3}, {"ab", 5}, {"", 3}, {"x", 1}, {"hello", 0},
	}
	for _, tt := range tests {
		got := chunks(tt.s, tt.n)
		if strings.Join(got, "") != tt.s {
			t.Errorf("chunks(%q, %d) = %q: does not join back", tt.s, tt.n, got)
		}
		if want := max(1, min(tt.n, len(tt.s))); len(tt.s) > 1 && len(got) != want && !strings.ContainsFunc(tt.s, func(r rune) bool { return r > 127 }) {
			t.Errorf("chunks(%q, %d) gave %d pieces, want %d", tt.s, tt.n, len(got), want)
		}
		for _, c := range got {
			if !utf8.ValidString(c) {
				t.Errorf("chunks(%q, %d) cut a rune: %q", tt.s, tt.n, got)
			}
		}
	}
}
