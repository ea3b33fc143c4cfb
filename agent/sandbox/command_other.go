//go:build !linux && !darwin

package sandbox

import (
	"runtime"

	"github.com/tandemhq/tandem/internal/proc"
	"github.com/tandemhq/tandem/internal/shell"
)

// Available is false here: no kernel sandbox tandem can apply. The policy
// then asks before every command full-auto would have run unasked.
func Available() (bool, string) {
	if runtime.GOOS == "windows" {
		return false, "Windows has no kernel sandbox in this release of tandem, so commands run unconfined"
	}
	return false, "tandem has no sandbox on " + runtime.GOOS + ", so commands run unconfined"
}

// Command runs script in the platform's shell (internal/shell) as a
// process tree of its own, unconfined.
func Command(p Policy, helper, script string) *Cmd {
	c := shell.Exec(script)
	proc.Group(c)
	return &Cmd{Cmd: c}
}
