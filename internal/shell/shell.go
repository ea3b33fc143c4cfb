// Package shell says how a command line the model (or a user) wrote is run
// on this platform: the one place that names the shell. It never runs
// anything itself.
package shell

import "os/exec"

// Exec is the unstarted command that runs script in the user's shell on
// this platform; callers add their own attributes (a process group).
func Exec(script string) *exec.Cmd {
	argv := Argv(script)
	c := exec.Command(argv[0], argv[1:]...)
	verbatim(c, argv, script)
	return c
}
