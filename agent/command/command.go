// Package command holds the shape of a shell command a tool asks a host to
// run and of how it ended. It is a leaf: hosts (agent/local, acp, lsp) and
// the tools share these types without importing one another. It must never
// run anything itself.
package command

import "time"

// Spec is a shell command to run.
type Spec struct {
	Command string // run with sh -c
	Dir     string // absolute working directory (the session root)
	// Roots are the session's additional roots: writable like Dir.
	Roots   []string
	Timeout time.Duration
	// OutputLimit caps the kept output in bytes (head and tail kept). 0 = no cap.
	OutputLimit int
	// OnOutput receives the output so far while the command runs. May be nil.
	OnOutput func(output string)
	// OnTerminal is called once with the editor's terminal id when the host
	// runs the command in an editor terminal. May be nil.
	OnTerminal func(id string)
	// Stdin is fed to the command's standard input (empty: none), and
	// SplitStderr keeps stderr apart in Result.Stderr; hosts that run
	// commands in an editor terminal ignore both. Hook commands use them.
	Stdin       string
	SplitStderr bool
	Env         []string // extra NAME=value variables (local hosts only)
}

// Result is how a command ended.
type Result struct {
	Output    string // combined stdout and stderr, capped (stdout only with SplitStderr)
	Stderr    string // with SplitStderr, capped like Output
	ExitCode  int    // -1 when killed by a signal or the timeout
	Signal    string // the signal that ended it, if any
	TimedOut  bool
	Truncated bool // Output lost its middle to the cap
}
