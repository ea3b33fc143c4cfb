package instructions

import (
	"io"
	"io/fs"
	"os"
)

// fileSystem is the slice of the OS the tracker touches. Tests substitute it
// to provoke read errors that root would otherwise shrug off.
type fileSystem interface {
	Stat(name string) (fs.FileInfo, error) // follows symlinks
	Lstat(name string) (fs.FileInfo, error)
	Open(name string) (openFile, error)
}

type openFile interface {
	io.ReadCloser
	Stat() (fs.FileInfo, error)
}

type osFS struct{}

func (osFS) Stat(name string) (fs.FileInfo, error)  { return os.Stat(name) }
func (osFS) Lstat(name string) (fs.FileInfo, error) { return os.Lstat(name) }
func (osFS) Open(name string) (openFile, error) {
	return os.OpenFile(name, os.O_RDONLY|openFlags, 0)
}

// fileVersion identifies one state of a file cheaply. Equal versions let a
// probe skip the read; the digest remains the identity that is persisted.
type fileVersion struct {
	size     int64
	mtime    int64
	dev, ino uint64
	mode     fs.FileMode
}

func versionOf(fi fs.FileInfo) fileVersion {
	dev, ino := fileID(fi)
	return fileVersion{fi.Size(), fi.ModTime().UnixNano(), dev, ino, fi.Mode()}
}
