//go:build windows

package flock

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// lock is a byte-range lock (LockFileEx) on a lock file in the user's
// temporary directory named after dir. Windows cannot lock a directory
// handle, and a lock file beside the guarded files would show in the
// repository; every tandem of one user shares the temporary directory.
// The name folds case, as Windows paths do.
type lock struct{ f *os.File }

func open(dir string) (*lock, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(strings.ToLower(filepath.Clean(abs))))
	name := filepath.Join(os.TempDir(), "tandem-"+hex.EncodeToString(sum[:12])+".lock")
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	return &lock{f: f}, nil
}

func (l *lock) try() (busy bool, err error) {
	var ol windows.Overlapped
	err = windows.LockFileEx(windows.Handle(l.f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return true, nil
	}
	return false, os.NewSyscallError("LockFileEx", err)
}

// release closes the file, which drops the lock; the file stays for the
// next one (removing it could race with a process about to lock it).
func (l *lock) release() { l.f.Close() }
