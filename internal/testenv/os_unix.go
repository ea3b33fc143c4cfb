//go:build unix

package testenv

import (
	"errors"
	"os/exec"
	"syscall"
)

// Alive reports whether pid is a running process; a zombie (dead, not
// yet reaped) counts as gone.
func Alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	if state, _, ok := Stat(pid); ok {
		return state != "Z"
	}
	// No /proc (macOS): kill's answer is all there is.
	return syscall.Kill(pid, 0) == nil
}

// Mkfifo makes a named pipe at path.
func Mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// AsUser makes cmd run as uid:gid (the caller must be root).
func AsUser(cmd *exec.Cmd, uid, gid uint32) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uid, Gid: gid}
}
