package completion

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tandemhq/tandem/codeindex"
)

// RelatedFiles finds the users of a renamed name from the index's
// references, and without them by reading the nearest files; never the
// document itself, never more than the limit.
func TestRelatedFilesFindsTheUsers(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"a/calc.go":   "package a\n\nfunc Sum(a, b int) int { return a + b }\n",
		"a/use.go":    "package a\n\nvar x = Add(1, 2)\n",
		"b/other.go":  "package b\n\nvar y = a.Add(3, 4)\n",
		"c/none.go":   "package c\n\nvar Adder = 1\n",
		"d/define.go": "package d\n\nfunc Add() {}\n",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(p string) (string, bool) {
		b, err := os.ReadFile(p)
		return string(b), err == nil
	}
	abs := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(root, filepath.FromSlash(n)))
		}
		slices.Sort(out)
		return out
	}
	near := filepath.Join(root, "a", "calc.go")
	for _, refs := range []bool{false, true} {
		ix, err := codeindex.Open(context.Background(), root, codeindex.Options{Refs: refs, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		got := RelatedFiles(ix, near, []string{"Add"}, 5, read)
		slices.Sort(got)
		if want := abs("a/use.go", "b/other.go", "d/define.go"); !slices.Equal(got, want) {
			t.Errorf("refs %v: %v, want %v", refs, got, want)
		}
		if got := RelatedFiles(ix, near, []string{"Add"}, 1, read); len(got) != 1 {
			t.Errorf("refs %v, limit 1: %v", refs, got)
		}
	}
}
