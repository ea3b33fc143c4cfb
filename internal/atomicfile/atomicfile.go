// Package atomicfile replaces files so that a reader, or a crash, sees
// either the old content or the new, never a mix: the new content goes to a
// temporary file in the same directory, is synced to disk, and is renamed
// over the target. Everything tandem writes whole (edited workspace files,
// session metadata, the code index cache) goes through it. On Windows,
// os.Rename is MoveFileEx with MOVEFILE_REPLACE_EXISTING, which replaces
// the target in one step too.
//
// It must never leave its temporary file behind on failure, and never
// change the permissions of a file it replaces.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with data. A file that already exists keeps its
// permission bits; a new one gets perm. The directory must exist.
func Write(path string, data []byte, perm fs.FileMode) error {
	return WriteWith(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteWith is Write for content that fill streams out; an error from fill
// leaves path untouched and is returned wrapped.
func WriteWith(path string, perm fs.FileMode, fill func(io.Writer) error) error {
	return write(path, perm, fill, true)
}

// WriteCache is WriteWith without the fsync, for a cache whose reader
// checks what it reads (a checksum) and rebuilds it when the check fails:
// after a crash it may find the old file, the new one or a torn one, and
// each is fine, so the writer need not wait for the disk (an fsync costs
// milliseconds, on the path of whoever waits for the cache's owner).
func WriteCache(path string, perm fs.FileMode, fill func(io.Writer) error) error {
	return write(path, perm, fill, false)
}

func write(path string, perm fs.FileMode, fill func(io.Writer) error, sync bool) error {
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// A dot name keeps the temporary file out of listings while it exists.
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	err = fill(tmp)
	if err == nil {
		// CreateTemp made it 0600 whatever the umask; set what was asked.
		err = tmp.Chmod(perm)
	}
	if err == nil && sync {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
