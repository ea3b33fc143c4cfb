package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A file replaced by empty content is modified now, as the rename's new
// file was: the spare, emptied or made long before, gets no write that
// would set its time, and make and other tools that compare times would
// take the file for older than what was built from it.
func TestSpareEmptyContentIsModifiedNow(t *testing.T) {
	d, root, home, sp := spareDir(t)
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteIn(d, "b", []byte("new b"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The spare is now b's old inode, emptied; date it back an hour.
	long := time.Now().Add(-time.Hour)
	for p := range spareFiles(t, sp, home) {
		if err := os.Chtimes(p, long, long); err != nil {
			t.Fatal(err)
		}
	}
	before := time.Now().Add(-time.Second)
	if err := WriteIn(d, "a", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != 0 {
		t.Fatalf("a holds %d bytes, want none", fi.Size())
	}
	if fi.ModTime().Before(before) {
		t.Errorf("a emptied now was last modified %v, before the edit (%v)", fi.ModTime(), before)
	}
}
