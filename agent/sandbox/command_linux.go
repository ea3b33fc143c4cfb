package sandbox

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
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

// Cmd is a command prepared by Command.
type Cmd struct {
	*exec.Cmd
	status *os.File // read end of the helper's status pipe; nil without helper
	helped bool     // runs under the helper
}

// Command builds the command that runs `sh -c script` under p. With a
// helper (an executable that calls Main first, tandem itself), the command
// runs under an init of its own PID namespace whose death (with tandem's,
// even by kill -9) kills every process left in it, confined by Landlock
// unless p's mode is off or the kernel lacks Landlock. Without a helper it
// is a plain process-group child that dies with tandem.
func Command(p Policy, helper, script string) *Cmd {
	if helper == "" {
		c := exec.Command("sh", "-c", script)
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		return &Cmd{Cmd: c}
	}
	// A user namespace even for root: the command keeps its uid but holds
	// capabilities only inside the namespace, so root's CAP_SYS_PTRACE
	// cannot read tandem's non-dumpable /proc/<pid>/environ or memory.
	attr := &syscall.SysProcAttr{
		Setpgid:                    true,
		Pdeathsig:                  syscall.SIGKILL,
		Cloneflags:                 syscall.CLONE_NEWNS | syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID,
		UidMappings:                []syscall.SysProcIDMap{{ContainerID: os.Geteuid(), HostID: os.Geteuid(), Size: 1}},
		GidMappings:                []syscall.SysProcIDMap{{ContainerID: os.Getegid(), HostID: os.Getegid(), Size: 1}},
		GidMappingsEnableSetgroups: false,
	}
	c := exec.Command(helper, append([]string{HelperArg}, helperArgs(p, "sh", "-c", script)...)...)
	c.SysProcAttr = attr
	return &Cmd{Cmd: c, helped: true}
}

// Start starts the command, with the status pipe when a helper runs it.
// Where the kernel refuses the namespaces it falls back to a plain
// process-group child, which a setsid daemon can escape.
func (c *Cmd) Start() error {
	if c.helped {
		r, w, err := os.Pipe()
		if err != nil {
			return err
		}
		c.ExtraFiles = []*os.File{w}
		err = c.Cmd.Start()
		w.Close()
		if err == nil {
			c.status = r
			return nil
		}
		r.Close()
		if !namespaceRefused(err) {
			return err
		}
		plain := exec.Command("sh", "-c", c.Args[len(c.Args)-1])
		plain.Dir, plain.Env, plain.Stdout, plain.Stderr, plain.WaitDelay = c.Dir, c.Env, c.Stdout, c.Stderr, c.WaitDelay
		plain.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		c.Cmd, c.helped = plain, false
	}
	return c.Cmd.Start()
}

// Signal is the signal that ended the command under the helper ("" when
// it exited, or when no helper ran it). Call it after Wait.
func (c *Cmd) Signal() string {
	if c.status == nil {
		return ""
	}
	defer c.status.Close()
	b, _ := io.ReadAll(c.status)
	n, err := strconv.Atoi(string(b))
	if err != nil || n <= 0 {
		return ""
	}
	return syscall.Signal(n).String()
}

func namespaceRefused(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC)
}
