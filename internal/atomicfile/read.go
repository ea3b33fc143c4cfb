//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"syscall"
)

// ReadFile is os.ReadFile with plain system calls: open, fstat, read,
// close. os.ReadFile first offers the descriptor to the runtime's poller,
// which refuses a regular file after four fcntl calls and an epoll_ctl; a
// tool step reads a file or two, and on a virtual machine each call costs
// a few microseconds. Errors are *fs.PathError as os.ReadFile's are, so a
// missing file matches fs.ErrNotExist.
func ReadFile(path string) ([]byte, error) {
	var fd int
	err := retry(func() (err error) {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	return readFd(fd, path)
}

// readFd reads the open file fd to its end; path names it in errors.
func readFd(fd int, path string) ([]byte, error) {
	var st syscall.Stat_t
	if err := retry(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	// One byte more than the size, so the usual file is read in one call
	// and the next returns 0; a file that grows, or reports no size
	// (/proc), is read on until EOF.
	data := make([]byte, 0, max(int(st.Size), 0)+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		var n int
		err := retry(func() (err error) {
			n, err = syscall.Read(fd, data[len(data):cap(data)])
			return err
		})
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return data, nil
		}
		data = data[:len(data)+n]
	}
}

// retry runs f again while a signal interrupts it (the Go runtime's own
// preemption signals do).
func retry(f func() error) error {
	for {
		if err := f(); !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
