package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
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

// helper runs in the child, as the init of fresh PID and mount namespaces:
// it makes the protected entries read-only, restricts itself with Landlock
// and execs the command, which inherits both.
func helper(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("usage: %s POLICY COMMAND…", HelperArg)
	}
	p, err := decodePolicy(args[0])
	if err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	if err := protect(p.Roots); err != nil {
		return err
	}
	if err := restrict(p); err != nil {
		return err
	}
	path, err := exec.LookPath(args[1])
	if err != nil {
		return err
	}
	return syscall.Exec(path, args[1:], os.Environ())
}

// protect bind-mounts each protected entry of the roots onto itself
// read-only. Landlock alone cannot do it: a grant on a root covers all of
// it. The mount namespace is private, so the binds vanish with the command.
func protect(roots []string) error {
	if len(roots) == 0 {
		return nil
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("private mounts: %w", err)
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
// write only where p allows, and no TCP connect or bind when p denies the
// network.
func restrict(p Policy) error {
	rw := append([]string{"/dev"}, p.Writable...)
	rw = append(rw, p.Roots...)
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWDirs(rw...).IgnoreIfMissing(),
	}
	cfg := landlock.V7.BestEffort()
	if p.NetworkDeny {
		if LandlockABI() < 4 {
			return fmt.Errorf("network deny needs Landlock ABI 4 (Linux 6.7); this kernel has %d", LandlockABI())
		}
		// No network rules: every TCP connect and bind is refused.
		return cfg.Restrict(rules...)
	}
	return cfg.RestrictPaths(rules...)
}
