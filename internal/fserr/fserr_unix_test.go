//go:build !windows

package fserr

import (
	"fmt"
	"os"
	"syscall"
	"testing"
)

func TestUnixCodes(t *testing.T) {
	full := &os.PathError{Op: "write", Path: "/x", Err: syscall.ENOSPC}
	if !DiskFull(fmt.Errorf("save: %w", full)) || !DiskFull(syscall.EDQUOT) {
		t.Error("ENOSPC or EDQUOT is not DiskFull")
	}
	if !TooLarge(syscall.EFBIG) || !IO(syscall.EIO) {
		t.Error("EFBIG or EIO not recognised")
	}
}
