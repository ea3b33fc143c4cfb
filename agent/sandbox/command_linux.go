package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// LandlockABI is the kernel's Landlock ABI version, 0 when Landlock is
// missing or disabled.
func LandlockABI() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(v)
}

// Available reports whether commands can be confined by Landlock here, and
// why not when they cannot.
func Available() (bool, string) {
	if LandlockABI() < 1 {
		return false, "the kernel has no Landlock (Linux 5.13+ with landlock in the lsm= list)"
	}
	return true, ""
}

// Command builds the *exec.Cmd that runs `sh -c script` under p, using
// helper (an executable that calls Main first) to apply Landlock. With an
// empty helper, or mode off, or no Landlock, the command is not confined
// but still gets its own PID namespace where the kernel allows one.
func Command(p Policy, helper, script string) *exec.Cmd {
	attr := &syscall.SysProcAttr{
		Setpgid: true,
		// The init of the namespace dies with tandem, even with kill -9, and
		// the kernel then kills every process left in the namespace.
		Pdeathsig:  syscall.SIGKILL,
		Cloneflags: syscall.CLONE_NEWPID,
	}
	if os.Geteuid() != 0 {
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Geteuid(), HostID: os.Geteuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getegid(), HostID: os.Getegid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	var cmd *exec.Cmd
	if ok, _ := Available(); ok && helper != "" && p.Mode != ModeOff {
		attr.Cloneflags |= syscall.CLONE_NEWNS
		cmd = exec.Command(helper, HelperArg, encodePolicy(p), "sh", "-c", script)
	} else {
		cmd = exec.Command("sh", "-c", script)
	}
	cmd.SysProcAttr = attr
	return cmd
}

// Unconfined makes cmd a plain process-group child, for kernels that refuse
// the namespaces Command asked for (no unprivileged user namespaces). The
// caller retries Start after it.
func Unconfined(cmd *exec.Cmd, script string) *exec.Cmd {
	c := exec.Command("sh", "-c", script)
	c.Dir, c.Env, c.Stdout, c.Stderr, c.WaitDelay = cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr, cmd.WaitDelay
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	return c
}

// NamespaceRefused reports whether a Start error means the kernel would not
// create the namespaces.
func NamespaceRefused(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) ||
		(err != nil && strings.Contains(err.Error(), "operation not permitted"))
}
