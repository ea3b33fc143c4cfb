//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// A FIFO or a symlink put in an edited file's place before the turn ends
// is passed over by Sync: opening the FIFO would wait for a writer forever.
func TestBatchSyncPassesOverWhatReplacedTheFile(t *testing.T) {
	dir := testenv.TempDir(t)
	r, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var b Batch
	for _, name := range []string{"fifo", "link"} {
		if err := b.WriteIn(r, name, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "fifo"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- b.Sync() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Sync: %v", err)
		}
	case <-time.After(10 * time.Second):
		// Unblock the stuck open so the goroutine can end with the test.
		if f, err := os.OpenFile(filepath.Join(dir, "fifo"), os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("Sync waited on the FIFO")
	}
}

// unsyncable makes dir/name impossible to open: dir becomes a plain file.
func unsyncable(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
}
