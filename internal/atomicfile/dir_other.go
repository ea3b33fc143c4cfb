//go:build !linux

package atomicfile

import (
	"errors"
	"io/fs"
)

// errNoBeneath sends every Dir operation to os.Root: openat2 is Linux's.
var errNoBeneath = errors.New("openat2 unavailable")

func openPath(string) (int, error) { return -1, errNoBeneath }

func closeFd(int) error { return nil }

func readBeneath(int, string, string) ([]byte, error) { return nil, errNoBeneath }

func writeBeneath(int, string, []byte, fs.FileMode, bool) error { return errNoBeneath }
