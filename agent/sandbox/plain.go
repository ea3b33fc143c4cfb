//go:build !linux

package sandbox

import (
	"os/exec"

	"github.com/tandemhq/tandem/internal/proc"
)

// Cmd is a command prepared by Command.
type Cmd struct {
	*exec.Cmd
	tree *proc.Tree
}

// Start starts the command and takes charge of its process tree.
func (c *Cmd) Start() error {
	if err := c.Cmd.Start(); err != nil {
		return err
	}
	t, err := proc.Track(c.Cmd)
	if err != nil {
		return err
	}
	c.tree = t
	return nil
}

// Signal is always "" off Linux: there is no helper between tandem and the
// command (sandbox-exec execs it), so the exit status says it.
func (c *Cmd) Signal() string { return "" }
