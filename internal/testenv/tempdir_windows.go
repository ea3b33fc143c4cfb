//go:build windows

package testenv

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TempDir is t.TempDir for tests that also run under Wine: Wine 8 answers
// the delete call Go's os.RemoveAll makes on Windows
// (FileDispositionInformationEx) with "not implemented", so t.TempDir's
// own cleanup fails every test. This one removes the tree entry by entry
// with os.Remove (DeleteFileW and RemoveDirectoryW, which Wine has).
// Code under test is not affected: only the test's cleanup differs.
func TempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", strings.NewReplacer("/", "_", "\\", "_", ":", "_").Replace(t.Name()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := RemoveTree(dir); err != nil {
			t.Errorf("removing %s: %v", dir, err)
		}
	})
	return dir
}

// RemoveTree is os.RemoveAll without the delete call Wine 8 lacks (see
// TempDir): deepest entries first, one os.Remove each.
func RemoveTree(dir string) error {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err == nil {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	// WalkDir visits a directory before its entries.
	for _, p := range slices.Backward(paths) {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

// Perm is the permission os.Stat reports on this system for a file made
// or chmodded with m: Windows keeps only a read-only flag, which Go shows
// as 0444 and clears as 0666.
func Perm(m fs.FileMode) fs.FileMode {
	if m&0o200 != 0 {
		return 0o666
	}
	return 0o444
}
