//go:build !windows

package fserr

import (
	"errors"
	"syscall"
)

func notDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

func diskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

func tooLarge(err error) bool { return errors.Is(err, syscall.EFBIG) }

func ioError(err error) bool { return errors.Is(err, syscall.EIO) }
