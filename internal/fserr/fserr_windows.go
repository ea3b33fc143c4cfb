package fserr

import (
	"errors"

	"golang.org/x/sys/windows"
)

// notDir: Windows reports a file used as a directory as "path not found"
// (already fs.ErrNotExist) or as ERROR_DIRECTORY.
func notDir(err error) bool { return errors.Is(err, windows.ERROR_DIRECTORY) }

func diskFull(err error) bool {
	return errors.Is(err, windows.ERROR_DISK_FULL) || errors.Is(err, windows.ERROR_HANDLE_DISK_FULL) ||
		errors.Is(err, windows.ERROR_DISK_QUOTA_EXCEEDED)
}

func tooLarge(err error) bool { return errors.Is(err, windows.ERROR_FILE_TOO_LARGE) }

func ioError(err error) bool { return errors.Is(err, windows.ERROR_IO_DEVICE) }
