package atomicfile

import (
	"errors"
	"io/fs"
	"path"

	"golang.org/x/sys/unix"
)

// errNoBeneath says the fast path cannot serve a call (no openat2, or a
// name it leaves to os.Root); the caller falls back to os.Root.
var errNoBeneath = errors.New("openat2 unavailable")

// errEscapes is what a name leading out of the directory fails with:
// os.Root's words for it.
var errEscapes = errors.New("path escapes from parent")

// beneath resolves a name as an os.Root does: symlinks followed only while
// they stay inside, ".." never above the top, and no /proc magic links.
const beneath = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS

func openPath(p string) (int, error) {
	var fd int
	err := retry(func() (err error) {
		fd, err = unix.Open(p, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		return err
	})
	return fd, err
}

func closeFd(fd int) error { return unix.Close(fd) }

// openBeneath opens name under dirfd with openat2; errNoBeneath when the
// kernel (or a seccomp filter) refuses the call itself or the name is one
// os.Root should judge ("..", ".", empty elements).
func openBeneath(dirfd int, name string, flags uint64) (int, error) {
	if !fs.ValidPath(name) {
		return -1, errNoBeneath
	}
	how := unix.OpenHow{Flags: flags | unix.O_CLOEXEC, Resolve: beneath}
	var fd int
	err := retry(func() (err error) {
		fd, err = unix.Openat2(dirfd, name, &how)
		return err
	})
	switch {
	case err == unix.ENOSYS || err == unix.EPERM:
		return -1, errNoBeneath
	case err == unix.EXDEV:
		return -1, errEscapes
	}
	return fd, err
}

// readBeneath reads name under dirfd whole; full names it in errors.
func readBeneath(dirfd int, name, full string) ([]byte, error) {
	fd, err := openBeneath(dirfd, name, unix.O_RDONLY)
	if errors.Is(err, errNoBeneath) {
		return nil, err
	}
	if err != nil {
		return nil, &fs.PathError{Op: "openat2", Path: full, Err: err}
	}
	defer unix.Close(fd)
	return readFd(fd, full)
}

// writeBeneath is WriteIn on the fast path: the parent directory is
// opened beneath dirfd, and the temporary file, the mode and the rename
// are single names relative to it, which no symlink can redirect.
func writeBeneath(dirfd int, name string, data []byte, perm fs.FileMode, sync bool) error {
	if !fs.ValidPath(name) || name == "." {
		return errNoBeneath
	}
	dir, base := path.Split(name)
	pfd := dirfd
	if dir != "" {
		fd, err := openBeneath(dirfd, path.Clean(dir), unix.O_PATH|unix.O_DIRECTORY)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		pfd = fd
	}
	perm, err := statBeneath(dirfd, pfd, name, base, perm)
	if err != nil {
		return err
	}
	tmpName := tempName(base)
	var fd int
	err = retry(func() (err error) {
		fd, err = unix.Openat(pfd, tmpName, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		return err
	})
	if err != nil {
		return err
	}
	err = writeAll(fd, data)
	if err == nil {
		// Created 0600 whatever the umask; set what was asked.
		err = retry(func() error { return unix.Fchmod(fd, uint32(perm)) })
	}
	if err == nil && sync {
		err = retry(func() error { return unix.Fsync(fd) })
	}
	if cerr := unix.Close(fd); err == nil {
		err = cerr
	}
	if err == nil {
		err = retry(func() error { return unix.Renameat(pfd, tmpName, pfd, base) })
	}
	if err != nil {
		unix.Unlinkat(pfd, tmpName, 0)
	}
	return err
}

// statBeneath is the permission bits the replaced file keeps: those of
// base in pfd, or of what it links to when that stays beneath dirfd; perm
// when there is nothing there yet.
func statBeneath(dirfd, pfd int, name, base string, perm fs.FileMode) (fs.FileMode, error) {
	var stx unix.Statx_t
	err := retry(func() error {
		return unix.Statx(pfd, base, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_BASIC_STATS, &stx)
	})
	switch {
	case err == unix.ENOENT:
		return perm, nil
	case err == unix.ENOSYS || err == unix.EPERM:
		// statx refused (a seccomp filter): os.Root stats without it.
		return 0, errNoBeneath
	case err != nil:
		return 0, err
	case stx.Mode&unix.S_IFMT != unix.S_IFLNK:
		return fs.FileMode(stx.Mode & 0o777), nil
	}
	var st unix.Stat_t
	fd, err := openBeneath(dirfd, name, unix.O_PATH)
	if err == nil {
		err = retry(func() error { return unix.Fstat(fd, &st) })
		unix.Close(fd)
	}
	switch {
	case err == nil:
		return fs.FileMode(st.Mode & 0o777), nil
	case err == unix.ENOENT:
		return perm, nil
	}
	return 0, err
}

// writeAll writes data to fd, on through short writes.
func writeAll(fd int, data []byte) error {
	for len(data) > 0 {
		var n int
		err := retry(func() (err error) {
			n, err = unix.Write(fd, data)
			return err
		})
		if err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}
