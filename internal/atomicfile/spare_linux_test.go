package atomicfile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// spareDir opens a Dir over a fresh root that replaces through Spares kept
// under a fresh home on the same file system.
func spareDir(t *testing.T) (d *Dir, root, home string, sp *Spares) {
	t.Helper()
	return spareDirIn(t, t.TempDir(), t.TempDir())
}

func inode(t *testing.T, p string) uint64 {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ino
}

// settle waits for the emptying of an old file the last edit left to a
// goroutine.
func (s *Spares) settle() {
	s.mu.Lock()
	s.mu.Unlock()
}

// spareFiles lists the regular files under home (the spares), with sizes,
// once sp has settled.
func spareFiles(t *testing.T, sp *Spares, home string) map[string]int64 {
	t.Helper()
	sp.settle()
	got := map[string]int64{}
	filepath.WalkDir(home, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			fi, _ := e.Info()
			got[p] = fi.Size()
		}
		return nil
	})
	return got
}

// treeNames lists every name under root, relative and sorted.
func treeNames(t *testing.T, root string) []string {
	t.Helper()
	var names []string
	filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if p != root {
			rel, _ := filepath.Rel(root, p)
			names = append(names, rel)
		}
		return nil
	})
	sort.Strings(names)
	return names
}

// Replacing an existing file swaps two inodes back and forth: no new one
// per edit, the mode kept, the spare left empty and outside the tree.
func TestSpareReplacesWithoutNewInodes(t *testing.T) {
	d, root, home, sp := spareDir(t)
	p := filepath.Join(root, "a.txt")
	if err := os.WriteFile(p, []byte("zero"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	first := inode(t, p)
	seen := map[uint64]bool{first: true}
	for i, content := range []string{"one", "two, longer than one", "3", "four"} {
		if err := WriteIn(d, "a.txt", []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		assertFile(t, p, content, 0o640)
		seen[inode(t, p)] = true
		spares := spareFiles(t, sp, home)
		if len(spares) != 1 {
			t.Fatalf("after edit %d the home holds %v, want one spare", i, spares)
		}
		for sp, size := range spares {
			if size != 0 {
				t.Errorf("the spare %s holds %d bytes of old content, want it emptied", sp, size)
			}
		}
	}
	if len(seen) != 2 {
		t.Errorf("the file went through %d inodes in 4 edits, want 2 (the file and the spare, exchanged)", len(seen))
	}
	if got := treeNames(t, root); strings.Join(got, " ") != "a.txt" {
		t.Errorf("the tree holds %v, want only a.txt", got)
	}
}

// Each file keeps its own mode when the one spare serves them all.
func TestSpareKeepsEachMode(t *testing.T) {
	d, root, _, _ := spareDir(t)
	modes := map[string]os.FileMode{"run.sh": 0o755, "secret": 0o600, "doc.md": 0o644}
	for name, m := range modes {
		p := filepath.Join(root, name)
		if err := os.WriteFile(p, []byte("old"), m); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, m)
	}
	for round := range 3 {
		for _, name := range []string{"run.sh", "secret", "doc.md"} {
			content := name + strings.Repeat("!", round)
			if err := WriteIn(d, name, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			assertFile(t, filepath.Join(root, name), content, modes[name])
		}
	}
}

// A reader sees the old content or the new, never a mix or an empty file,
// both while edits land and when it opened the file before one: the old
// inode it holds is not emptied for reuse.
func TestSpareReadersSeeOldOrNew(t *testing.T) {
	d, root, _, sp := spareDir(t)
	p := filepath.Join(root, "f")
	long, short := strings.Repeat("long line\n", 5000), "short\n"
	if err := os.WriteFile(p, []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}

	held, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	for _, c := range []string{short, long, short} {
		if err := WriteIn(d, "f", []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sp.settle()
	if got, _ := io.ReadAll(held); string(got) != long {
		t.Errorf("a reader holding the file since before the edits read %d bytes, want the %d it opened", len(got), len(long))
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var bad []int
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			got, err := os.ReadFile(p)
			if err != nil || string(got) != long && string(got) != short {
				bad = append(bad, len(got))
			}
		}
	}()
	for i := range 200 {
		c := long
		if i%2 == 1 {
			c = short
		}
		if err := WriteIn(d, "f", []byte(c), 0o644); err != nil {
			t.Error(err)
			break
		}
	}
	close(stop)
	wg.Wait()
	if len(bad) > 0 {
		t.Errorf("%d reads saw neither the old nor the new content (sizes %v)", len(bad), bad[:min(len(bad), 5)])
	}
}

// A file with a second name is replaced under this name only: the other
// keeps the old content, as after a rename.
func TestSpareLeavesHardLinksAlone(t *testing.T) {
	d, root, _, _ := spareDir(t)
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	if err := os.WriteFile(a, []byte("shared"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"new", "newer"} {
		if err := WriteIn(d, "a", []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		assertFile(t, a, c, 0o644)
		assertFile(t, b, "shared", 0o644)
	}
}

// New files, symlinks, files on another mount, and Spares that cannot be
// set up or are closed all fall back to temporary file and rename, with
// today's results.
func TestSpareFallsBack(t *testing.T) {
	d, root, home, sp := spareDir(t)
	if err := WriteIn(d, "new.txt", []byte("fresh"), 0o640); err != nil {
		t.Fatal(err)
	}
	assertFile(t, filepath.Join(root, "new.txt"), "fresh", 0o640)
	if n := len(spareFiles(t, sp, home)); n != 0 {
		t.Errorf("a new file made %d spares; it has nothing to exchange with", n)
	}

	// A symlink inside the root is replaced by a file with its target's
	// mode, the target untouched, as before.
	if err := os.WriteFile(filepath.Join(root, "target"), []byte("t"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := WriteIn(d, "link", []byte("via link"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(filepath.Join(root, "link")); fi == nil || !fi.Mode().IsRegular() {
		t.Errorf("the symlink was not replaced by a file: %v", fi)
	}
	assertFile(t, filepath.Join(root, "link"), "via link", 0o600)
	assertFile(t, filepath.Join(root, "target"), "t", 0o600)

	// Closed: edits still land.
	sp.Close()
	if err := WriteIn(d, "new.txt", []byte("after close"), 0o644); err != nil {
		t.Fatal(err)
	}
	assertFile(t, filepath.Join(root, "new.txt"), "after close", 0o640)
	if got := spareFiles(t, sp, home); len(got) != 0 {
		t.Errorf("Close left %v", got)
	}

	// A home that cannot be made.
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o644)
	d.UseSpares(NewSpares(filepath.Join(blocker, "spares")))
	if err := WriteIn(d, "new.txt", []byte("no home"), 0o644); err != nil {
		t.Fatal(err)
	}
	assertFile(t, filepath.Join(root, "new.txt"), "no home", 0o640)
}

// A home on another mount than the file cannot take part in an exchange:
// the edit is a rename and no spare is made.
func TestSpareOnAnotherMountFallsBack(t *testing.T) {
	root := t.TempDir()
	home := otherMountDir(t, root)
	sp := NewSpares(home)
	defer sp.Close()
	d, err := OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.UseSpares(sp)
	p := filepath.Join(root, "a")
	os.WriteFile(p, []byte("old"), 0o600)
	for _, c := range []string{"one", "two"} {
		if err := WriteIn(d, "a", []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		assertFile(t, p, c, 0o600)
	}
	if got := spareFiles(t, sp, home); len(got) != 0 {
		t.Errorf("spares were made on another mount: %v", got)
	}
}

// otherMountDir is a fresh directory on another mount than dir: /dev/shm
// (tmpfs on every Linux this runs on) unless dir is there itself.
func otherMountDir(t *testing.T, dir string) string {
	t.Helper()
	mnt := func(p string) uint64 {
		var st syscall.Stat_t
		if err := syscall.Stat(p, &st); err != nil {
			return 0
		}
		return st.Dev
	}
	for _, c := range []string{"/dev/shm", "/var/tmp", "/tmp"} {
		if m := mnt(c); m != 0 && m != mnt(dir) {
			p, err := os.MkdirTemp(c, "spares-test")
			if err != nil {
				continue
			}
			t.Cleanup(func() { os.RemoveAll(p) })
			return p
		}
	}
	t.Fatalf("no writable directory on a mount other than %s's", dir)
	return ""
}

// Through a Batch the exchange defers the fsync like the rename did, and
// Sync covers the file now at the name.
func TestSpareUnderBatch(t *testing.T) {
	d, root, _, _ := spareDir(t)
	p := filepath.Join(root, "a")
	os.WriteFile(p, []byte("old"), 0o644)
	var b Batch
	for _, c := range []string{"one", "two"} {
		if err := b.WriteIn(d, "a", []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.Pending(); len(got) != 1 || got[0] != p {
		t.Errorf("pending %v, want %s", got, p)
	}
	if err := b.Sync(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); !bytes.Equal(got, []byte("two")) {
		t.Errorf("after Sync %q", got)
	}
}

// A replaced file that carries extended attributes (here a user attribute,
// as an ACL or a security label would be) is not reused as the spare: the
// next file replaced would get them. (A file that has them when the edit
// looks is replaced by rename; this one gets them just before the
// exchange.)
func TestSpareDropsFilesWithXattrs(t *testing.T) {
	d, root, _, sp := spareDir(t)
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sp.beforeExchange = func() {
		if err := unix.Setxattr(a, "user.tandem-test", []byte("a only"), 0); err != nil {
			t.Errorf("setting a user attribute on %s: %v", a, err)
		}
	}
	if err := WriteIn(d, "a", []byte("new a"), 0o644); err != nil {
		t.Fatal(err)
	}
	sp.settle()
	sp.beforeExchange = nil
	if err := WriteIn(d, "b", []byte("new b"), 0o644); err != nil {
		t.Fatal(err)
	}
	assertFile(t, b, "new b", 0o644)
	if n, err := unix.Getxattr(b, "user.tandem-test", nil); err == nil {
		t.Fatalf("b got a's attribute (%d bytes) through the spare", n)
	}
}
