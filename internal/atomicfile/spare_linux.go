package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// spareName is the spare file's name inside a Spares' own directory.
const spareName = "spare"

// spareState is the Linux half of Spares: its own locked directory and the
// spare in it, kept open, empty and ready to take the next content.
type spareState struct {
	ready bool
	path  string // the own directory
	dirfd int    // it, open and flock'ed while the Spares lives
	mnt   unix.Statx_t

	fd   int    // the spare, open for writing and empty; -1 when there is none
	mode uint32 // its permission bits
	gid  uint32 // its group
	// flags are the inode flags (chattr's) a new spare is born with; a
	// reclaimed file is kept only with the same.
	flags uint32
}

// replace writes data to base in pfd by exchange when it can (see
// Spares): false when it did not and the caller is to write as before.
// target is base's own statx, a regular file; perm the bits to keep.
func (s *Spares) replace(pfd int, base string, target *unix.Statx_t, data []byte, perm fs.FileMode, sync bool) (bool, error) {
	s.mu.Lock()
	handed := false // to the goroutine emptying the old file, which unlocks
	defer func() {
		if !handed {
			s.mu.Unlock()
		}
	}()
	st := &s.state
	if s.broken {
		return false, nil
	}
	if !st.ready {
		if err := st.setup(s.dir); err != nil {
			// No spare directory (unwritable home, say): edits work as before.
			s.broken = true
			return false, nil
		}
	}
	if !sameMount(&st.mnt, target) {
		return false, nil
	}
	if st.fd < 0 {
		if err := st.create(); err != nil {
			if err == errSpareLabelled {
				// Every new spare would bring the home's attributes.
				s.broken = true
			}
			return false, nil
		}
	}
	// A rename gives the file the group a new file gets; the spare's may
	// differ from the target's (a setgid directory): keep that case as it was.
	if st.gid != target.Gid {
		return false, nil
	}
	// A target with attributes (an ACL its directory gave it, a security
	// label) gets its directory's again from the rename's new file; the
	// spare, made elsewhere, has none to give.
	if nameHasXattrs(pfd, base) {
		return false, nil
	}
	err := st.fill(data, perm, sync)
	if err == nil && s.beforeExchange != nil {
		s.beforeExchange()
	}
	if err == nil {
		// The target first: the kernel reports the first name leaving,
		// then the spare arriving under it, so a watcher of the target's
		// directory sees the file go and come back, as with a rename. In
		// the other order the last word on the name would be that it left.
		err = unix.Renameat2(pfd, base, st.dirfd, spareName, unix.RENAME_EXCHANGE)
	}
	switch {
	case err == nil:
		fd, err := st.take(pfd, base)
		if fd >= 0 {
			// Emptying the old file frees its blocks, which on a file
			// system mounted with discard waits for the device (some
			// 0.3 ms here, most of an edit's time): a goroutine does it
			// after the edit returns, holding s.mu until done, so the
			// next edit and Close wait for it.
			handed = true
			go func() {
				defer s.mu.Unlock()
				st.reclaim(fd)
			}()
		}
		return true, err
	case err == unix.EXDEV || err == unix.EINVAL || err == unix.ENOSYS:
		// The file system refuses the exchange: it will every time.
		s.broken = true
	}
	// Whatever else stopped it (the target gone meanwhile, an immutable
	// file), the rename it replaces is the judge: it creates the file, or
	// fails as it did before.
	st.discard()
	return false, nil
}

// fill writes data to the spare with mode perm, synced if asked, and
// closes it: no descriptor of ours outlives the exchange on what becomes
// the user's file.
func (st *spareState) fill(data []byte, perm fs.FileMode, sync bool) error {
	err := writeAll(st.fd, data)
	if err == nil && len(data) == 0 {
		// No write dated the spare, emptied or made a while ago; a
		// rename's new file was modified now, and make and its kin
		// compare times.
		err = retry(func() error { return unix.UtimesNanoAt(st.dirfd, spareName, nil, unix.AT_SYMLINK_NOFOLLOW) })
	}
	if err == nil && st.mode != uint32(perm) {
		if err = retry(func() error { return unix.Fchmod(st.fd, uint32(perm)) }); err == nil {
			st.mode = uint32(perm)
		}
	}
	if err == nil && sync {
		err = retry(func() error { return unix.Fsync(st.fd) })
	}
	if cerr := unix.Close(st.fd); err == nil {
		err = cerr
	}
	st.fd = -1
	return err
}

// sameMount says whether target is on the spare's mount, the only place an
// exchange with it can work; without mount ids (Linux before 5.8) the
// device decides and a refused exchange turns Spares off.
func sameMount(spare, target *unix.Statx_t) bool {
	if spare.Mask&target.Mask&unix.STATX_MNT_ID != 0 {
		return spare.Mnt_id == target.Mnt_id
	}
	return spare.Dev_major == target.Dev_major && spare.Dev_minor == target.Dev_minor
}

// create makes a new, empty spare. Whatever has the name still is
// removed, never reused: only reclaim judges whether an old file may be.
func (st *spareState) create() error {
	unix.Unlinkat(st.dirfd, spareName, 0)
	var fd int
	err := retry(func() (err error) {
		fd, err = unix.Openat(st.dirfd, spareName, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		return err
	})
	if err != nil {
		return err
	}
	var fst unix.Stat_t
	err = unix.Fstat(fd, &fst)
	if err == nil && hasXattrs(fd) {
		// Born with attributes (a default ACL on the home, a security
		// label): exchanged into the tree, it would hand them to the
		// user's file, which a rename's new file gets from its own
		// directory instead.
		unix.Close(fd)
		unix.Unlinkat(st.dirfd, spareName, 0)
		return errSpareLabelled
	}
	if err == nil {
		// Emptied like every reclaimed spare, so ext4 treats its first
		// content as it does theirs (see reclaim).
		err = unix.Ftruncate(fd, 0)
	}
	if err != nil {
		unix.Close(fd)
		return err
	}
	st.fd, st.mode, st.gid, st.flags = fd, fst.Mode&0o7777, fst.Gid, inodeFlags(fd)
	return nil
}

// take opens what the exchange put in the spare's place, for reclaim to
// empty: the target's old inode, the user's old content. Something other
// than a file swapped in for the target meanwhile is dropped, as the
// rename it replaced would have dropped it, or put back if it is a
// directory (and the edit fails, as a rename over a directory does). It
// returns -1 when there is nothing to reclaim.
func (st *spareState) take(pfd int, base string) (int, error) {
	var fd int
	err := retry(func() (err error) {
		fd, err = unix.Openat(st.dirfd, spareName, unix.O_RDWR|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
		return err
	})
	if err == unix.EISDIR {
		if err := putBack(st.dirfd, pfd, base); err != nil {
			return -1, &fs.PathError{Op: "put back a directory moved to", Path: st.path, Err: err}
		}
		st.discard()
		return -1, unix.EISDIR
	}
	if err != nil {
		st.discard()
		return -1, nil
	}
	return fd, nil
}

// reclaim empties the old file fd and keeps it as the next spare; it is
// dropped instead (unlinked, its content untouched) when another name
// links to it, it carries extended attributes (an ACL, a label) or inode
// flags a new spare lacks (chattr's no-COW, sync, no-dump), another
// process has it open (a reader part-way through the old content: a write
// lease is granted only when nobody else has the file open), or it is not
// ours. (Emptied, then written and closed: ext4
// takes that as a file being rewritten and starts putting its data on
// disk at the close, as it does for a rename over an existing file, so an
// exchange before the batch's fsync is as safe from a power cut as the
// rename was.)
func (st *spareState) reclaim(fd int) {
	var fst unix.Stat_t
	keep := unix.Fstat(fd, &fst) == nil && fst.Mode&unix.S_IFMT == unix.S_IFREG &&
		fst.Nlink == 1 && fst.Uid == uint32(os.Geteuid()) && !hasXattrs(fd) && inodeFlags(fd) == st.flags &&
		lease(fd, unix.F_WRLCK) == nil
	if keep {
		keep = retry(func() error { return unix.Ftruncate(fd, 0) }) == nil
		lease(fd, unix.F_UNLCK)
	}
	if !keep {
		unix.Close(fd)
		st.discard()
		return
	}
	st.fd, st.mode, st.gid = fd, fst.Mode&0o7777, fst.Gid
}

// inodeFlags is fd's inode flags (FS_IOC_GETFLAGS, chattr's): 0 on a
// file system without them, all ones when they cannot be told, which
// matches no spare's.
func inodeFlags(fd int) uint32 {
	f, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
	switch {
	case err == nil:
		return f
	case err == unix.ENOTTY || err == unix.ENOTSUP || err == unix.EINVAL:
		return 0
	}
	return ^uint32(0)
}

// errSpareLabelled is create's refusal of a spare born with extended
// attributes.
var errSpareLabelled = errors.New("a new spare has extended attributes")

// nameHasXattrs is hasXattrs for base in the directory pfd (a path
// descriptor, which the xattr calls on descriptors refuse), through
// /proc; true when that cannot be told.
func nameHasXattrs(pfd int, base string) bool {
	n, err := unix.Llistxattr("/proc/self/fd/"+strconv.Itoa(pfd)+"/"+base, nil)
	return err != nil && err != unix.ENOTSUP || n > 0
}

// hasXattrs reports whether the file has extended attributes, or whether
// that cannot be told. An ACL, a security label or a user attribute
// belongs to the file that had it: reused as a spare, the inode would hand
// them to whichever file the next edit replaces.
func hasXattrs(fd int) bool {
	n, err := unix.Flistxattr(fd, nil)
	return err != nil && err != unix.ENOTSUP || n > 0
}

// putBack returns the directory an exchange took from base to it: by
// exchange with what is there now, or by rename if base is gone; tried a
// few times while something else keeps changing base.
func putBack(sparefd, pfd int, base string) error {
	var err error
	for range 3 {
		if err = unix.Renameat2(sparefd, spareName, pfd, base, unix.RENAME_EXCHANGE); err != unix.ENOENT {
			return err
		}
		if err = unix.Renameat2(sparefd, spareName, pfd, base, unix.RENAME_NOREPLACE); err != unix.EEXIST {
			return err
		}
	}
	return err
}

// lease sets (F_WRLCK) or drops (F_UNLCK) a lease on fd. A write lease is
// granted only while no other descriptor has the file open; should
// someone open it while the lease is held (for a truncate's duration), the
// kernel makes them wait and sends SIGIO, which the Go runtime ignores.
func lease(fd, how int) error {
	return retry(func() error {
		_, err := unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, how)
		return err
	})
}

// discard removes the spare (closing it if open); the next replace makes
// a new one.
func (st *spareState) discard() {
	if st.fd >= 0 {
		unix.Close(st.fd)
		st.fd = -1
	}
	unix.Unlinkat(st.dirfd, spareName, 0)
}
