// Package proc is the one place that knows how an operating system groups
// and ends processes: a command tandem starts (a shell command, an MCP
// server, a plugin) runs as a process tree of its own, and ending the tree
// ends every process in it, grandchildren included. On Unix the tree is a
// process group (Setpgid; signals go to the negative pid). On Windows it
// is a Job Object created with kill-on-close, the child started suspended
// and resumed only once it is in the job, so not even its first child can
// escape; Terminate there is a Ctrl-Break to the child's console process
// group, Kill ends the job.
//
// It also names the signals that ask tandem itself to shut down, and how
// a command's exit status tells that a signal ended it.
//
// It must never decide what runs or how it is confined (agent/policy and
// agent/sandbox do that); it only starts, tracks and ends.
package proc
