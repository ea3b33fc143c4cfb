//go:build !windows

package shell

import "os/exec"

// Described is how the model is told commands run (run_command's
// description).
const Described = "`sh -c`"

// Argv runs script with `sh -c`: POSIX sh is on every Unix, and is what
// the model's commands are written for.
func Argv(script string) []string { return []string{"sh", "-c", script} }

// verbatim has nothing to do: sh gets script as one argument.
func verbatim(*exec.Cmd, []string, string) {}
