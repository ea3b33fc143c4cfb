// Package shell says how a command line the model (or a user) wrote is run
// on this platform: the one place that names the shell. It never runs
// anything itself.
package shell

// Command is the program and arguments that run script in the user's shell
// on this platform.
func Command(script string) (name string, args []string) {
	argv := Argv(script)
	return argv[0], argv[1:]
}
