package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Batch is a group commit for replaced files: WriteIn through it renames
// the new content into place at once but leaves the fsync to one Sync for
// the whole group, so a run of edits to the same files pays for stable
// storage once instead of once per write.
//
// Until Sync, a file holds its new content for every reader and survives
// the writer being killed (it is in the page cache); only a power loss or
// a kernel crash before Sync can lose it. The replace-by-rename is then
// still old-or-new on ext4 (auto_da_alloc, the default) and btrfs, which
// flush a file's data before the rename that replaces another commits;
// elsewhere the file may come back empty. Sync opens the path, so it
// syncs the file the rename put there and the directory that names it. A Batch is for writes that a
// later barrier (a turn's end) will sync; a write that must be durable on
// its own uses WriteIn.
//
// The zero Batch is ready to use; it is safe for concurrent use.
type Batch struct {
	mu    sync.Mutex
	files map[string]struct{} // absolute paths written since the last Sync
}

// WriteIn is the package's WriteIn without the fsync, the file recorded
// for the next Sync.
func (b *Batch) WriteIn(d *Dir, name string, data []byte, perm fs.FileMode) error {
	if err := d.write(name, data, perm, false); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.files == nil {
		b.files = make(map[string]struct{})
	}
	b.files[filepath.Join(d.Name(), filepath.FromSlash(name))] = struct{}{}
	return nil
}

// Pending lists the files written since the last Sync, sorted.
func (b *Batch) Pending() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Sorted(maps.Keys(b.files))
}

// Sync puts every file written since the last Sync on stable storage, then
// the directories that hold them (their renames). A file gone since (a
// later delete or rename) has nothing left to sync and is passed over. The
// error joins every failure; the batch is empty afterwards either way, as
// a failed fsync cannot be retried meaningfully.
func (b *Batch) Sync() error {
	b.mu.Lock()
	files := slices.Sorted(maps.Keys(b.files))
	b.files = nil
	b.mu.Unlock()
	var errs []error
	dirs := map[string]struct{}{}
	for _, p := range files {
		dirs[filepath.Dir(p)] = struct{}{}
		errs = append(errs, syncPath(p))
	}
	if syncDirs {
		for _, d := range slices.Sorted(maps.Keys(dirs)) {
			errs = append(errs, syncPath(d))
		}
	}
	return errors.Join(errs...)
}

// syncPath fsyncs one file or directory; a missing one is no error, and
// neither is anything else found there by now (a symlink, a FIFO a
// command put in the file's place, a directory where they cannot be
// synced): it holds nothing that was written, and opening a FIFO would
// wait for a writer forever.
func syncPath(p string) error {
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) || err == nil && !fi.Mode().IsRegular() && (!fi.IsDir() || !syncDirs) {
		return nil
	}
	f, err := os.OpenFile(p, syncOpenFlags, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sync %s: %w", p, err)
	}
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		f.Close()
		return nil
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync %s: %w", p, err)
	}
	return nil
}

type batchKey struct{}

// WithBatch returns ctx carrying b: writers that honour it (the local
// host's edits) defer their fsync to b.Sync.
func WithBatch(ctx context.Context, b *Batch) context.Context {
	return context.WithValue(ctx, batchKey{}, b)
}

// BatchFrom returns the Batch ctx carries, or nil: write and sync at once.
func BatchFrom(ctx context.Context) *Batch {
	b, _ := ctx.Value(batchKey{}).(*Batch)
	return b
}

// Add records a file written in place by other means (appended to, say)
// for the next Sync.
func (b *Batch) Add(path string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.files == nil {
		b.files = make(map[string]struct{})
	}
	b.files[path] = struct{}{}
}
