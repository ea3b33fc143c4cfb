package proc

import (
	"fmt"
	"os/exec"
)

// Start starts cmd as a process tree of its own and returns the tree.
// It is Group, cmd.Start and Track in one.
func Start(cmd *exec.Cmd) (*Tree, error) {
	Group(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return Track(cmd)
}

// Track returns the tree of cmd, which Group prepared and which has just
// started. On failure the process is killed (it may be suspended and
// would otherwise wait forever) and the error says why.
func Track(cmd *exec.Cmd) (*Tree, error) {
	if cmd.Process == nil {
		return nil, fmt.Errorf("proc: %s has not started", cmd.Path)
	}
	t, err := track(cmd.Process.Pid)
	if err != nil {
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("proc: tracking %s: %w", cmd.Path, err)
	}
	return t, nil
}
