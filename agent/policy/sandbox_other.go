//go:build !windows

package policy

// noKernelSandbox is "" off Windows: whether commands are confined is the
// host's word (Landlock on Linux, Seatbelt on macOS).
const noKernelSandbox = ""
