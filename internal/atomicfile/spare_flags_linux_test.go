package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// fsNodumpFl is chattr's d: the file is left out of dump's backups.
const fsNodumpFl = 0x40

func fileFlags(t *testing.T, p string) uint32 {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	flags, err := unix.IoctlGetUint32(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err != nil {
		t.Skipf("no inode flags on %s: %v", p, err)
	}
	return flags
}

// A replaced file that carries inode flags (chattr's: here d, no dump; as
// well no copy on write, synchronous writes, a project) is not reused as
// the spare either: the next file replaced would get them, where a
// rename's new file got its directory's.
func TestSpareDropsFilesWithInodeFlags(t *testing.T) {
	d, root, _, sp := spareDir(t)
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plain := fileFlags(t, b)
	f, err := os.Open(a)
	if err != nil {
		t.Fatal(err)
	}
	err = unix.IoctlSetPointerInt(int(f.Fd()), unix.FS_IOC_SETFLAGS, int(fileFlags(t, a)|fsNodumpFl))
	f.Close()
	if err != nil {
		t.Skipf("cannot set chattr d on %s: %v", a, err)
	}
	if err := WriteIn(d, "a", []byte("new a"), 0o644); err != nil {
		t.Fatal(err)
	}
	sp.settle()
	if err := WriteIn(d, "b", []byte("new b"), 0o644); err != nil {
		t.Fatal(err)
	}
	assertFile(t, b, "new b", 0o644)
	if got := fileFlags(t, b); got != plain {
		t.Errorf("b's flags went from %#x to %#x: a's came with the spare", plain, got)
	}
}
