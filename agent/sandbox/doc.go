// Package sandbox confines the shell commands tandem runs on the model's
// behalf. On Linux a command runs in user, mount and PID namespaces of its
// own under a helper whose child is the PID namespace's init (so nothing
// it starts outlives it or tandem, and it holds no capability over tandem,
// even as root) and, unless the mode is off, under Landlock: writes only
// inside the session root, the temp directory and configured paths, with
// the protected files of a workspace (.git hooks and config, instruction
// files, .tandem/, .vscode/, editor workspace files) bind-mounted
// read-only, the key and session files of $TANDEM_HOME shown empty, no
// signals to processes outside the sandbox (ABI 6), and TCP optionally
// denied. Elsewhere it reports itself unavailable and confines nothing.
//
// The helper is C (helper_linux.c), run from an ELF constructor before the
// Go runtime starts, and makes the namespaces itself: a command then pays
// for the helper's vfork and exec, a clone into the namespaces, and the
// command's fork and exec, not for starting all of tandem again nor for
// copying its address space (bench/sandbox measures the cost).
//
// It must never decide whether a command may run (that is the permission
// policy's job) and never read tandem's configuration files itself: the
// caller hands it a Policy.
package sandbox
