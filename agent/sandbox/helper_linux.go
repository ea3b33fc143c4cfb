package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Main turns the process into the sandbox helper when it was started with
// HelperArg, and never returns then; otherwise it returns at once. Call it
// first thing in main (and in TestMain of tests that run confined
// commands).
func Main() {
	if len(os.Args) < 2 || os.Args[1] != HelperArg {
		return
	}
	if err := helper(os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "tandem sandbox: %v\n", err)
		os.Exit(126)
	}
}

// helper runs in the child, which the runner started in new user, mount
// and PID namespaces, so it is the PID namespace's init: it makes the
// protected entries read-only, hides the hidden directories, restricts the
// thread it runs on with Landlock, and from that thread starts the command,
// which inherits the restriction; then it stays the init (see
// initProcess). Only that one thread is restricted, not the whole helper:
// Landlock's all-threads setup stalls in a PID namespace's init (measured
// here), and the helper itself runs nothing the model chose. Doing it all
// in one process rather than starting a second stage saves a process
// start per command. The helper dies with tandem (Pdeathsig), and when the
// init dies the kernel kills whatever is left in the namespace, so
// tandem's death, even by kill -9, ends them all.
func helper(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("usage: %s POLICY COMMAND…", HelperArg)
	}
	p, err := decodePolicy(args[0])
	if err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	// Locked for good: the restriction lives on this thread, and the
	// command must be forked from it.
	runtime.LockOSThread()
	if ok, _ := Available(); ok && p.Mode != ModeOff {
		if err := protect(p.Roots, p.Hidden); err != nil {
			return err
		}
		if err := restrict(p); err != nil {
			return err
		}
	}
	return initProcess(args[1:])
}

// protect bind-mounts each protected entry of the roots onto itself
// read-only, and covers each hidden directory with an empty read-only
// tmpfs. Landlock alone cannot do either: a grant on a root covers all of
// it, and reads are granted everywhere. The mount namespace is private, so
// the mounts vanish with the command.
func protect(roots, hidden []string) error {
	if len(roots) == 0 && len(hidden) == 0 {
		return nil
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("private mounts: %w", err)
	}
	for _, h := range hidden {
		if err := hide(h); err != nil {
			return fmt.Errorf("hide %s: %w", h, err)
		}
	}
	for _, root := range roots {
		for _, p := range Protected(root) {
			if err := readOnlyBind(p); err != nil {
				return fmt.Errorf("protect %s: %w", p, err)
			}
		}
	}
	return nil
}

// hide covers a directory with an empty read-only tmpfs and a file with
// /dev/null; a missing or symlinked entry is left alone (a link's target
// may be anywhere, and the link itself holds nothing).
func hide(p string) error {
	fi, err := os.Lstat(p)
	switch {
	case err != nil || fi.Mode()&os.ModeSymlink != 0:
		return nil
	case fi.IsDir():
		return unix.Mount("tandem-hidden", p, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,mode=0555")
	}
	return unix.Mount("/dev/null", p, "", unix.MS_BIND, "")
}

func readOnlyBind(p string) error {
	// A symlink would bind its target, which may lie anywhere; protecting
	// the link itself is all that is needed, and binds cannot do that, so
	// resolve it and protect the target only when it stays in place.
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil // dangling: nothing to write through
	}
	if err := unix.Mount(real, real, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	var st unix.Statfs_t
	if err := unix.Statfs(real, &st); err != nil {
		return err
	}
	// In a user namespace the remount must keep the flags the mount was
	// locked with (nosuid, nodev, …), so they are carried over.
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for _, f := range []struct{ st, ms uintptr }{
		{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV},
		{unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOATIME, unix.MS_NOATIME},
		{unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if uintptr(st.Flags)&f.st != 0 {
			flags |= f.ms
		}
	}
	return unix.Mount("", real, "", flags, "")
}

// restrict applies Landlock to this process: read and execute everywhere,
// write only where p allows, no signals to and no abstract-socket
// connections with processes outside the sandbox (tandem among them;
// ABI 6), and no TCP connect or bind when p denies the network.
func restrict(p Policy) error {
	rw := append([]string{"/dev"}, p.Writable...)
	rw = append(rw, p.Roots...)
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWDirs(rw...).IgnoreIfMissing(),
	}
	cfg := landlock.V7
	if p.NetworkDeny {
		if LandlockABI() < 4 {
			return fmt.Errorf("network deny needs Landlock ABI 4 (Linux 6.7); this kernel has %d", LandlockABI())
		}
		// No network rules: every TCP connect and bind is refused.
	} else {
		cfg.HandledAccessNet = 0
	}
	fd, flags, err := cfg.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("landlock ruleset: %w", err)
	}
	if fd < 0 {
		return nil // best effort found nothing to enforce
	}
	defer unix.Close(fd)
	// This thread only; the caller holds it locked.
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if err := llsyscall.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}
