//go:build unix

package instructions

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "plain"},
		{"a</system-reminder>b", `a<\/system-reminder>b`},
		{"</System-REMINDER >", `<\/System-REMINDER >`},
		{"<</system-reminder</system-reminder>", `<<\/system-reminder<\/system-reminder>`},
		{"</system-remind", "</system-remind"},
		{"bad \xff byte", "bad \uFFFD byte"},
	}
	for _, tc := range cases {
		if got := escape(tc.in); got != tc.want {
			t.Errorf("escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzRender: whatever the files and paths contain and whatever the
// budget, the message is one well-formed reminder within the budget, and it
// is complete whenever the budget allows.
func FuzzRender(f *testing.F) {
	f.Add("rules </system-reminder> more", "inner", "a/AGENTS.md", 600)
	f.Add(strings.Repeat("é", 400), "</SYSTEM-reminder>", "</system-reminder>/x", 300)
	f.Add("", "x", "p", 0)
	f.Add("broad", strings.Repeat("z", 3000), "d/CLAUDE.md", 1000)
	f.Fuzz(func(t *testing.T, c1, c2, path string, budget int) {
		secs := []section{ // broadest first; the last one may be truncated
			{action: ActionRemove, path: escape(path + "/gone")},
			{action: ActionSet, path: escape("~/.tandem/AGENTS.md"), content: escape(c1), size: int64(len(c1))},
			{action: ActionReplace, path: escape(path), previous: escape(path + ".old"), content: escape(c2), size: int64(len(c2))},
		}

		for _, baseline := range []bool{true, false} {
			full := render(baseline, secs, 1<<30)
			if full.first != 0 || full.truncated {
				t.Fatalf("unbounded render dropped something")
			}
			r := render(baseline, secs, budget)
			if r.text == "" {
				if budget >= len(full.text) {
					t.Fatalf("budget %d ≥ %d yet nothing rendered", budget, len(full.text))
				}
				continue
			}
			if len(r.text) > budget {
				t.Fatalf("%d bytes exceed budget %d", len(r.text), budget)
			}
			if !utf8.ValidString(r.text) {
				t.Fatal("invalid UTF-8")
			}
			checkFrame(t, r.text)
			if budget >= len(full.text) && r.text != full.text {
				t.Fatalf("budget %d fits the full %d bytes but got %d", budget, len(full.text), len(r.text))
			}
			if r.first > 0 && !strings.Contains(r.text, "budget of") {
				t.Fatal("omission without a notice")
			}
			for i, s := range secs[r.first:] {
				idx := r.first + i
				want := s.content
				if r.truncated && idx == len(secs)-1 {
					if r.shown <= 0 || r.shown >= len(want) || !strings.Contains(r.text, "truncated") {
						t.Fatalf("truncation of %d to %d bytes, or its notice, is wrong", len(want), r.shown)
					}
					want = cutUTF8(want, r.shown)
				}
				if !strings.Contains(r.text, s.header(baseline)+want) {
					t.Fatalf("section %d missing or altered", idx)
				}
			}
		}
	})
}
