//go:build !linux

package sandbox

import (
	"errors"
	"os/exec"
	"syscall"
)

// LandlockABI is 0: Landlock is Linux's.
func LandlockABI() int { return 0 }

// Available is false off Linux.
func Available() (bool, string) {
	return false, "Landlock is Linux-only; commands run unconfined on this platform"
}

// Main does nothing off Linux: there is no helper.
func Main() {}

// Command runs `sh -c script` in its own process group, unconfined.
func Command(p Policy, helper, script string) *exec.Cmd {
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// Unconfined returns cmd: it was never confined.
func Unconfined(cmd *exec.Cmd, script string) *exec.Cmd { return cmd }

// NamespaceRefused is false: no namespaces are asked for.
func NamespaceRefused(err error) bool { return errors.Is(err, errors.ErrUnsupported) }
