package pathx

import (
	"path/filepath"
	"testing"
)

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		dir, p string
		rel    string
		ok     bool
	}{
		{"/w", "/w", ".", true},
		{"/w", "/w/a/b.go", "a/b.go", true},
		{"/w", "/w/..foo", "..foo", true},
		{"/w/", "/w/a/../b", "b", true},
		{"/w", "/", "", false},
		{"/w", "/w2/a", "", false},
		{"/w", "/w/../x", "", false},
		{"/w/a", "/w", "", false},
		{"/w", "a", "", false}, // one absolute, one relative: no answer
		{"w", "w/a", "a", true},
	} {
		rel, ok := Within(c.dir, c.p)
		// Within answers in the platform's separators (a\b.go on Windows).
		if want := filepath.FromSlash(c.rel); rel != want || ok != c.ok {
			t.Errorf("Within(%q, %q) = %q, %v; want %q, %v", c.dir, c.p, rel, ok, want, c.ok)
		}
	}
}
