//go:build unix

package settings

import (
	"io/fs"
	"syscall"
)

// inode tells a file replaced by rename (as atomic writes do) from the old
// one even when size and time agree.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
