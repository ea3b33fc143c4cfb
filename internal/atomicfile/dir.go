package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Dir is a directory that names are resolved beneath: a symlink or ".."
// that would lead out of it, even one swapped in while the caller was
// deciding, makes the operation fail instead. On Linux it is a descriptor
// used with openat2(RESOLVE_BENEATH) and plain system calls — an os.Root
// walks each name one component at a time and registers every file it
// opens with the runtime's poller, some ten system calls more per edit.
// Where openat2 is missing (Linux before 5.6, a seccomp filter that
// refuses it) or on other systems, it is an os.Root.
//
// A Dir is not safe for concurrent use; Close it when done.
type Dir struct {
	path string
	fd   int      // the beneath descriptor; -1 once fallen back
	root *os.Root // opened on the first operation the descriptor cannot do
}

// OpenDir opens the directory at path (following a symlink in path
// itself: the caller trusts it).
func OpenDir(path string) (*Dir, error) {
	d := &Dir{path: path, fd: -1}
	fd, err := openPath(path)
	switch {
	case err == nil:
		d.fd = fd
	case errors.Is(err, errNoBeneath):
		if d.root, err = os.OpenRoot(path); err != nil {
			return nil, err
		}
	default:
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return d, nil
}

// Name is the path the Dir was opened with.
func (d *Dir) Name() string { return d.path }

// Close releases the directory.
func (d *Dir) Close() error {
	var err error
	if d.fd >= 0 {
		err = closeFd(d.fd)
		d.fd = -1
	}
	if d.root != nil {
		err = errors.Join(err, d.root.Close())
		d.root = nil
	}
	return err
}

// osRoot is the os.Root over the same directory, opened once when first
// needed: for what the fast path leaves to it (directories, removal) or
// everything once openat2 turned out missing.
func (d *Dir) osRoot() (*os.Root, error) {
	if d.root == nil {
		r, err := os.OpenRoot(d.path)
		if err != nil {
			return nil, err
		}
		d.root = r
	}
	return d.root, nil
}

// fallBack drops the descriptor after openat2 was refused, so every later
// operation goes through the os.Root.
func (d *Dir) fallBack() (*os.Root, error) {
	if d.fd >= 0 {
		closeFd(d.fd)
		d.fd = -1
	}
	return d.osRoot()
}

// ReadFile reads the file name (slash-separated, relative to d) whole.
func (d *Dir) ReadFile(name string) ([]byte, error) {
	if d.fd >= 0 {
		data, err := readBeneath(d.fd, name, filepath.Join(d.path, filepath.FromSlash(name)))
		if !errors.Is(err, errNoBeneath) {
			return data, err
		}
	}
	r, err := d.fallBack()
	if err != nil {
		return nil, err
	}
	return r.ReadFile(name)
}

// Remove removes the file or empty directory name.
func (d *Dir) Remove(name string) error {
	r, err := d.osRoot()
	if err != nil {
		return err
	}
	return r.Remove(name)
}

// MkdirAll creates directory name and any missing parents with perm.
func (d *Dir) MkdirAll(name string, perm fs.FileMode) error {
	r, err := d.osRoot()
	if err != nil {
		return err
	}
	return r.MkdirAll(name, perm)
}

// write replaces name with data (see WriteIn), through the descriptor
// when it can.
func (d *Dir) write(name string, data []byte, perm fs.FileMode, sync bool) error {
	if d.fd >= 0 {
		err := writeBeneath(d.fd, name, data, perm, sync)
		if !errors.Is(err, errNoBeneath) {
			if err != nil {
				return fmt.Errorf("write %s: %w", name, err)
			}
			return nil
		}
	}
	r, err := d.fallBack()
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return writeRoot(r, name, data, perm, sync)
}
