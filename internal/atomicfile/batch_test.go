package atomicfile

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tandemhq/tandem/internal/testenv"
)

// A write through a batch is in place at once, keeps the mode rules of
// WriteIn, and waits in the batch until Sync.
func TestBatchWritesNowAndSyncsLater(t *testing.T) {
	dir := testenv.TempDir(t)
	r, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	var b Batch
	for _, name := range []string{"a.txt", "sub/b.txt", "a.txt"} {
		if err := b.WriteIn(r, name, []byte(name), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	assertFile(t, filepath.Join(dir, "a.txt"), "a.txt", 0o640)
	assertFile(t, filepath.Join(dir, "sub", "b.txt"), "sub/b.txt", 0o640)
	want := []string{filepath.Join(dir, "a.txt"), filepath.Join(dir, "sub", "b.txt")}
	if got := b.Pending(); !slices.Equal(got, want) {
		t.Fatalf("Pending = %v, want %v (each file once)", got, want)
	}
	// A file deleted since has nothing to sync.
	if err := os.Remove(filepath.Join(dir, "sub", "b.txt")); err != nil {
		t.Fatal(err)
	}
	if err := b.Sync(); err != nil {
		t.Fatalf("Sync: %v", err)
	}
	if got := b.Pending(); len(got) != 0 {
		t.Errorf("Pending after Sync = %v, want none", got)
	}
	if es, _ := os.ReadDir(filepath.Join(dir, "sub")); len(es) != 0 {
		t.Errorf("sub holds %v, want nothing (a temporary file was left behind?)", es)
	}
}

// A file that cannot be opened for its fsync is an error, and the batch
// does not keep it for a retry.
func TestBatchSyncReportsWhatItCouldNotSync(t *testing.T) {
	dir := testenv.TempDir(t)
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := OpenDir(sub)
	if err != nil {
		t.Fatal(err)
	}
	var b Batch
	err = b.WriteIn(r, "a.txt", []byte("x"), 0o644)
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	unsyncable(t, sub, "a.txt")
	if err := b.Sync(); err == nil {
		t.Fatal("Sync of a file it cannot open succeeded")
	}
	if got := b.Pending(); len(got) != 0 {
		t.Errorf("Pending after a failed Sync = %v, want none", got)
	}
}

func TestBatchTravelsInTheContext(t *testing.T) {
	if BatchFrom(context.Background()) != nil {
		t.Error("a bare context carries a batch")
	}
	b := &Batch{}
	if got := BatchFrom(WithBatch(context.Background(), b)); got != b {
		t.Errorf("BatchFrom = %p, want %p", got, b)
	}
}
