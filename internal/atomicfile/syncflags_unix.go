//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// syncOpenFlags open a path only to fsync it: never through a symlink
// swapped in since the write, and never waiting on a FIFO.
const syncOpenFlags = os.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// syncDirs: a rename is durable once its directory is synced.
const syncDirs = true
