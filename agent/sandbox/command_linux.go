package sandbox

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/tandemhq/tandem/internal/proc"
	"github.com/tandemhq/tandem/internal/shell"
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
	tree   *proc.Tree
}

// Command builds the command that runs `sh -c script` under p. With a
// helper (an executable that calls Main first, tandem itself), the command
// runs under an init of its own PID namespace whose death (with tandem's,
// even by kill -9) kills every process left in it, confined by Landlock
// unless p's mode is off or the kernel lacks Landlock; where the kernel
// refuses unprivileged namespaces the helper runs it as a plain child
// under Landlock alone (no read-only protected entries), which a setsid
// daemon can escape. Without a helper it is a plain
// process-group child that dies with tandem. The helper makes the
// namespaces itself, so starting it is a cheap vfork (see helper_linux.c).
func Command(p Policy, helper, script string) *Cmd {
	return Program(p, helper, shell.Argv(script))
}

// Program is Command for a program and its arguments, run without a shell
// (a plugin's main): argv[0] is looked up in PATH.
func Program(p Policy, helper string, argv []string) *Cmd {
	var c *exec.Cmd
	if helper == "" {
		c = exec.Command(argv[0], argv[1:]...)
	} else {
		c = exec.Command(helper, append([]string{HelperArg}, helperArgs(p, argv...)...)...)
	}
	c.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	proc.Group(c)
	return &Cmd{Cmd: c, helped: helper != ""}
}

// Start starts the command, with the status pipe when a helper runs it,
// and takes charge of its process tree.
func (c *Cmd) Start() error {
	if !c.helped {
		return c.track(c.Cmd.Start())
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	c.ExtraFiles = []*os.File{w}
	err = c.Cmd.Start()
	w.Close()
	if err != nil {
		r.Close()
		return err
	}
	c.status = r
	return c.track(nil)
}

func (c *Cmd) track(started error) error {
	if started != nil {
		return started
	}
	t, err := proc.Track(c.Cmd)
	if err != nil {
		return err
	}
	c.tree = t
	return nil
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
