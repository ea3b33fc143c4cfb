//go:build !windows

package shell

import "os/exec"

// Name is the shell as the model is told of it.
const Name = "sh"

// Argv runs script with `sh -c`: POSIX sh is on every Unix, and is what
// the model's commands are written for.
func Argv(script string) []string { return []string{"sh", "-c", script} }

// verbatim has nothing to do: sh gets script as one argument.
func verbatim(*exec.Cmd, []string, string) {}
