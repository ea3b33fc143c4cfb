//go:build !windows

package testenv

import (
	"io/fs"
	"os"
	"testing"
)

// TempDir is t.TempDir; on Windows it also works under Wine 8.
func TempDir(t testing.TB) string {
	t.Helper()
	return t.TempDir()
}

// RemoveTree is os.RemoveAll; on Windows it also works under Wine 8.
func RemoveTree(dir string) error { return os.RemoveAll(dir) }

// Perm is the permission os.Stat reports on this system for a file made
// or chmodded with m: m itself outside Windows.
func Perm(m fs.FileMode) fs.FileMode { return m.Perm() }
