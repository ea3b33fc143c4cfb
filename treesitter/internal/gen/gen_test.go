package main

import (
	"bytes"
	"compress/flate"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// committed is the generated tree this test checks.
const committed = "../grammars"

// TestGeneratedUpToDate regenerates the shared files and the smaller
// grammars into a temporary directory and compares them with the committed
// ones, so a change to the generator, or to the module version in go.mod
// (the README names it), fails here until `go generate ./treesitter` runs.
// The large grammars take a minute to dump; they go through the same code.
func TestGeneratedUpToDate(t *testing.T) {
	out := t.TempDir()
	small := []string{"golang", "python", "lua"}
	if err := run(context.Background(), out, small); err != nil {
		t.Fatal(err)
	}
	got := files(t, out)
	want := files(t, committed)
	for rel, g := range got {
		w, ok := want[rel]
		switch {
		case !ok:
			t.Errorf("%s is generated but not committed", rel)
		case filepath.Base(rel) == packedName:
			// compress/flate may pack differently across Go releases; the
			// tables are what must match.
			if !bytes.Equal(inflate(t, g), inflate(t, w)) {
				t.Errorf("%s holds other tables than the generator dumps", rel)
			}
		case !bytes.Equal(g, w):
			t.Errorf("%s differs from what the generator writes", rel)
		}
	}
	for rel := range want {
		dir, _, nested := strings.Cut(rel, "/")
		if _, ok := got[rel]; !ok && (!nested || slices.Contains(small, dir)) {
			t.Errorf("%s is committed but no longer generated", rel)
		}
	}
}

// files reads every file under dir except hand-written Go, keyed by
// slash-separated relative path.
func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if !strings.Contains(rel, "/") && strings.HasSuffix(rel, ".go") {
			return nil // package grammars itself is written by hand
		}
		b, err := os.ReadFile(path)
		m[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func inflate(t *testing.T, b []byte) []byte {
	t.Helper()
	out, err := io.ReadAll(flate.NewReader(bytes.NewReader(b)))
	if err != nil {
		t.Fatal(err)
	}
	return out
}
