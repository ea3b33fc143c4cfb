//go:build unix

package instructions

import (
	"io/fs"
	"syscall"
)

// openFlags keeps an open from blocking if a FIFO replaced a file between
// the probe's stat and the open.
const openFlags = syscall.O_NONBLOCK

func fileID(fi fs.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino)
	}
	return 0, 0
}
