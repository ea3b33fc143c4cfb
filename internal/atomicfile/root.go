package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
)

// WriteIn is Write for a file named (slash-separated) inside d: the
// temporary file, the rename and the permission check all stay beneath
// d, so no symlink — not even one swapped in while the caller was
// deciding — can lead the write out of d's directory.
func WriteIn(d *Dir, name string, data []byte, perm fs.FileMode) error {
	return d.write(name, data, perm, true)
}

// tempName names the temporary file that will replace base: a dot name
// keeps it out of listings while it exists.
func tempName(base string) string {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	return "." + base + ".tmp" + hex.EncodeToString(rnd[:])
}

// writeRoot is WriteIn through an os.Root; without sync the content is
// not flushed before the rename, which the caller's Batch makes up for
// later.
func writeRoot(r *os.Root, name string, data []byte, perm fs.FileMode, sync bool) error {
	if fi, err := r.Stat(name); err == nil {
		perm = fi.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("write %s: %w", name, err)
	}
	dir, base := path.Split(name)
	tmpName := dir + tempName(base)
	tmp, err := r.OpenFile(tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil && sync {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Rename(tmpName, name)
	}
	if err != nil {
		r.Remove(tmpName)
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}
