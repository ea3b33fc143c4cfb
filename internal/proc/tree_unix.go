//go:build unix

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// Tree is a started command's process tree (a nil Tree ends nothing): on Unix the process group
// whose id is the leader's pid.
type Tree struct {
	pgid int
}

// Group makes cmd, before it starts, the leader of a process group of
// its own, keeping whatever else cmd.SysProcAttr says.
func Group(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

func track(pid int) (*Tree, error) { return &Tree{pgid: pid}, nil }

// Terminate asks every process in the tree to end (SIGTERM), so programs
// may clean up. A tree already gone is no error.
func (t *Tree) Terminate() error { return t.signal(syscall.SIGTERM) }

// Kill ends every process in the tree at once (SIGKILL). A tree already
// gone is no error.
func (t *Tree) Kill() error { return t.signal(syscall.SIGKILL) }

// Close kills whatever is left in the tree and releases it.
func (t *Tree) Close() error { return t.Kill() }

func (t *Tree) signal(sig syscall.Signal) error {
	if t == nil {
		return nil
	}
	if err := syscall.Kill(-t.pgid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return os.NewSyscallError("kill", err)
	}
	return nil
}

// ExitSignal is the name of the signal that ended a process ("" when it
// exited by itself), read from its state after Wait.
func ExitSignal(st *os.ProcessState) string {
	if st == nil {
		return ""
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
