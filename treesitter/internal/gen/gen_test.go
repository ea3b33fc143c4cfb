package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"
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
			// Another release of the compressor may pack differently;
			// the tables are what must match.
			if !bytes.Equal(unpack(t, g), unpack(t, w)) {
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

// unpack returns the tables' bytes one after the other.
func unpack(t *testing.T, b []byte) []byte {
	t.Helper()
	var out []byte
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			t.Fatal("packed tables end early")
		}
		// No table is larger than 256 times its block.
		table := make([]byte, 256*n)
		m, err := lz4.UncompressBlock(b[k:k+int(n)], table)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, table[:m]...)
		b = b[k+int(n):]
	}
	return out
}
