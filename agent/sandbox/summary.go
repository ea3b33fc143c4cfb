package sandbox

import "runtime"

// Summary says in a few words how this platform confines commands, for
// the editor (ACP initialize) and `tandem doctor`: the kernel mechanism,
// or "none" and why, so that no one takes unconfined commands for
// sandboxed ones.
func Summary() string {
	if ok, why := Available(); !ok {
		return "none: " + why + "; full-auto mode asks before every command"
	}
	switch runtime.GOOS {
	case "linux":
		return "Landlock"
	case "darwin":
		return "Seatbelt (sandbox-exec)"
	}
	return runtime.GOOS
}
