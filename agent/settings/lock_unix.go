//go:build unix

package settings

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// lockWait bounds how long a save waits for another one to finish; a
// process that keeps the lock longer is stuck, and the save fails saying
// so rather than hanging the session.
const lockWait = 5 * time.Second

// lockDir takes an exclusive flock on the directory dir (the .tandem
// directory), so two processes editing settings.local.json do not both
// read the old file and each write back its own change, losing the
// other's. The directory itself is locked, not a lock file beside the
// settings, so no stray file appears in the repository. It returns the
// unlock.
func lockDir(dir string) (func(), error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("settings: locking %s: %w", dir, err)
	}
	deadline := time.Now().Add(lockWait)
	for {
		err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return func() { unix.Close(fd) }, nil // closing releases the lock
		}
		if !errors.Is(err, unix.EWOULDBLOCK) || time.Now().After(deadline) {
			unix.Close(fd)
			return nil, fmt.Errorf("settings: locking %s (another tandem may be saving a rule): %w", dir, os.NewSyscallError("flock", err))
		}
		time.Sleep(5 * time.Millisecond)
	}
}
