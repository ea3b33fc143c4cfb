// Package fserr classifies file system errors the same way on every OS.
// The syscall package's Errno constants are Unix numbers; on Windows most
// of them are invented and no Windows call returns them, so a comparison
// such as errors.Is(err, syscall.ENOSPC) in an untagged file is silently
// never true there. Each OS's own codes live in the build-tagged files.
package fserr

import (
	"errors"
	"io/fs"
)

// Absent reports an error meaning "nothing is there": the path does not
// exist, or one of its parents is a file rather than a directory.
func Absent(err error) bool { return errors.Is(err, fs.ErrNotExist) || notDir(err) }

// DiskFull reports an out-of-space or out-of-quota error.
func DiskFull(err error) bool { return diskFull(err) }

// TooLarge reports that a file reached the size limit.
func TooLarge(err error) bool { return tooLarge(err) }

// IO reports a device I/O error.
func IO(err error) bool { return ioError(err) }
