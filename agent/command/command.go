// Package command holds the shape of a shell command a tool asks a host to
// run and of how it ended. It is a leaf: hosts (agent/local, acp, lsp) and
// the tools share these types without importing one another. It must never
// run anything itself.
package command

import "time"

// Spec is a shell command to run.
type Spec struct {
	Command string // run in the platform's shell (internal/shell)
	Dir     string // absolute working directory (the session root)
	// Roots are the session's additional roots: writable like Dir.
	Roots   []string
	Timeout time.Duration
	// OutputLimit caps the kept output in bytes (head and tail kept). 0 = no cap.
	OutputLimit int
	// OnOutput receives the output so far while the command runs. May be nil.
	OnOutput func(output string)
	// OnData receives each piece of output as it arrives, uncapped, in
	// the order written (stdout only with SplitStderr), on the goroutine
	// copying it: it must not block or keep p. Local hosts only; may be nil.
	OnData func(p []byte)
	// Unsandboxed runs the command outside tandem's sandbox (still in its
	// own process tree). Only a command the user approved for that, after
	// the sandbox blocked it, carries it.
	Unsandboxed bool
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
	// Blocked says what the sandbox refused the command, when its output
	// shows a refusal the sandbox would cause; "" otherwise.
	Blocked string
	// Created are protected entries (absolute paths) the command created:
	// missing when it started, so the sandbox could not keep them
	// read-only (see sandbox.Unguarded). Reported, never undone.
	Created []string
}

// Confinement is whether the commands a host runs are confined by
// tandem's sandbox. The permission policy lets full-auto run commands
// unasked only when they are.
type Confinement struct {
	// Known is false when the host cannot tell (a runner set up without
	// the sandbox helper, as in a library caller's tests): approval then
	// ignores confinement.
	Known    bool
	Confined bool
	// Why the commands run unconfined, in a sentence fragment.
	Why string
	// Notice asks to tell the user Why once per session: the sandbox is
	// unavailable here, rather than turned off by the user.
	Notice bool
}

// Confiner is implemented by hosts that can say whether they confine the
// commands they run.
type Confiner interface {
	CommandConfinement() Confinement
}
