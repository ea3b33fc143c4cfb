package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// setup makes the Spares' own directory under dir: a fresh name, locked
// with flock for as long as the Spares is open, so that no other process
// or session shares it and a later one can tell it from a dead one's.
// Directories left by Spares that died unclosed are removed first.
func (st *spareState) setup(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	sweep(dir)
	for range 3 {
		var rnd [8]byte
		_, _ = rand.Read(rnd[:])
		p := filepath.Join(dir, hex.EncodeToString(rnd[:]))
		if err := unix.Mkdir(p, 0o700); err != nil {
			if err == unix.EEXIST {
				continue
			}
			return err
		}
		fd, err := lockDir(p)
		if err != nil {
			// Another process's sweep took it between mkdir and lock.
			continue
		}
		var fst unix.Stat_t
		if err := unix.Fstat(fd, &fst); err != nil || fst.Nlink == 0 {
			unix.Close(fd)
			continue
		}
		if err := unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_BASIC_STATS|unix.STATX_MNT_ID, &st.mnt); err != nil {
			unix.Close(fd)
			return err
		}
		st.ready, st.path, st.dirfd, st.fd = true, p, fd, -1
		return nil
	}
	return errors.New("no spare directory could be made")
}

// lockDir opens the directory p and takes its lock without waiting.
func lockDir(p string) (int, error) {
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// sweep removes the directories under dir that nobody holds locked: their
// Spares' process died before Close. What is in them is a spare, perhaps
// still holding a user's old content; anything else (a directory a failed
// put-back left) is kept, and so is the directory holding it.
func sweep(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		fd, err := lockDir(p)
		if err != nil {
			continue
		}
		inner, _ := os.ReadDir(p)
		for _, f := range inner {
			if !f.IsDir() {
				unix.Unlinkat(fd, f.Name(), 0)
			}
		}
		unix.Rmdir(p)
		unix.Close(fd)
	}
}

// close empties and removes the spare and the directory, and drops the
// lock.
func (st *spareState) close() error {
	if !st.ready {
		return nil
	}
	st.ready = false
	st.discard()
	err := unix.Rmdir(st.path)
	unix.Close(st.dirfd)
	if err != nil {
		return &os.PathError{Op: "remove", Path: st.path, Err: err}
	}
	return nil
}
