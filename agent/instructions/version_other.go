//go:build !unix

package instructions

import "io/fs"

const openFlags = 0

func fileID(fs.FileInfo) (dev, ino uint64) { return 0, 0 }
