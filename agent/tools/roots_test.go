package tools

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Env.Resolve takes relative paths from the primary root, accepts absolute
// paths inside any root, and applies the same symlink rule in each.
func TestEnvResolveAcrossRoots(t *testing.T) {
	primary, second, outside := realTemp(t), realTemp(t), realTemp(t)
	for _, f := range []string{filepath.Join(primary, "a.txt"), filepath.Join(second, "b.txt"), filepath.Join(outside, "c.txt")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "c.txt"), filepath.Join(second, "link.txt")); err != nil {
		t.Fatal(err)
	}
	env := &Env{Root: primary, Roots: []string{second}}
	for _, c := range []struct {
		in, want string
	}{
		{"a.txt", filepath.Join(primary, "a.txt")},
		{filepath.Join(second, "b.txt"), filepath.Join(second, "b.txt")},
		{filepath.Join(second, "new/file.txt"), filepath.Join(second, "new/file.txt")},
	} {
		got, err := env.Resolve(c.in)
		if err != nil || got != c.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"b.txt/../../x", filepath.Join(outside, "c.txt"), filepath.Join(second, "link.txt"), filepath.Join(second, "../x")} {
		if got, err := env.Resolve(bad); !errors.Is(err, ErrPathRefused) {
			t.Errorf("Resolve(%q) = %q, %v; want a refusal", bad, got, err)
		}
	}
	if got := env.RootOf(filepath.Join(second, "b.txt")); got != second {
		t.Errorf("RootOf a second-root file = %q", got)
	}
	if got := env.RootOf(filepath.Join(primary, "a.txt")); got != primary {
		t.Errorf("RootOf a primary file = %q", got)
	}
}

func realTemp(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}
