//go:build !linux && !darwin

package sandbox

import (
	"os/exec"
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

// Program runs argv (a plugin's main) without a shell, unconfined, as a
// process tree of its own: argv[0] is looked up in PATH.
func Program(p Policy, helper string, argv []string) *Cmd {
	c := exec.Command(argv[0], argv[1:]...)
	proc.Group(c)
	return &Cmd{Cmd: c}
}
