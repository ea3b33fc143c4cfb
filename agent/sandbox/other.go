//go:build !linux

package sandbox

import (
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

// Cmd is a command prepared by Command.
type Cmd struct{ *exec.Cmd }

// Command runs `sh -c script` in its own process group, unconfined.
func Command(p Policy, helper, script string) *Cmd {
	c := exec.Command("sh", "-c", script)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &Cmd{c}
}

// Signal is always "": the exit status says it here.
func (c *Cmd) Signal() string { return "" }

// Unguarded reports nothing off Linux: no entry is protected there.
type Unguarded struct{}

// Snapshot records nothing off Linux.
func Snapshot([]string) Unguarded { return Unguarded{} }

// Created is nil off Linux.
func (Unguarded) Created() []string { return nil }
