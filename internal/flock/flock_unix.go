//go:build unix

package flock

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lock is a descriptor of the directory itself: no lock file appears
// beside the files it guards.
type lock struct{ fd int }

func open(dir string) (*lock, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	return &lock{fd: fd}, nil
}

func (l *lock) try() (busy bool, err error) {
	err = unix.Flock(l.fd, unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return true, nil
	}
	return false, os.NewSyscallError("flock", err)
}

// release closes the descriptor, which drops the lock.
func (l *lock) release() { unix.Close(l.fd) }
