package fserr

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/windows"
)

// The codes Windows returns are the ones recognised there.
func TestWindowsCodes(t *testing.T) {
	full := &os.PathError{Op: "write", Path: `C:\x`, Err: windows.ERROR_DISK_FULL}
	if !DiskFull(fmt.Errorf("save: %w", full)) {
		t.Error("ERROR_DISK_FULL is not DiskFull")
	}
	if !TooLarge(windows.ERROR_FILE_TOO_LARGE) || !IO(windows.ERROR_IO_DEVICE) {
		t.Error("ERROR_FILE_TOO_LARGE or ERROR_IO_DEVICE not recognised")
	}
}
