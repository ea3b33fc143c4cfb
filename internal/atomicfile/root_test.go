package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteIn creates and replaces inside the root, keeps the mode, and
// refuses a name that a symlink leads out of the root.
func TestWriteInStaysInTheRoot(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := WriteIn(r, "a.txt", []byte("one"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteIn(r, "a.txt", []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	assertFile(t, filepath.Join(dir, "a.txt"), "two", 0o640)

	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := WriteIn(r, "out/b.txt", []byte("x"), 0o644); err == nil {
		t.Error("a write through a symlink out of the root went ahead")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("files appeared outside: %v", entries)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("a temporary file was left: %v", entries)
	}
}
