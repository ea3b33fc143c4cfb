package pathx

import "testing"

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
		rel, ok := within(c.dir, c.p, unix)
		if rel != c.rel || ok != c.ok {
			t.Errorf("within(%q, %q) = %q, %v; want %q, %v", c.dir, c.p, rel, ok, c.rel, c.ok)
		}
	}
}
