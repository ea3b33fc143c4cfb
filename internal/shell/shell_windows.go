//go:build windows

package shell

import "os/exec"

// Name is the shell as the model is told of it.
const Name = "PowerShell"

// Argv runs script with PowerShell when there is one, else with `cmd /c`.
// PowerShell is preferred because it is on every supported Windows
// (Windows PowerShell 5.1; PowerShell 7's pwsh first when installed), and
// the commands a model writes (ls, cat, rm, mkdir -p, pipes) work there
// through its aliases far more often than in cmd. -NoProfile keeps a
// user's profile script out of every command; -NonInteractive makes a
// command that would prompt fail instead of waiting for input that never
// comes.
func Argv(script string) []string {
	for _, ps := range []string{"pwsh.exe", "powershell.exe"} {
		if p, err := exec.LookPath(ps); err == nil {
			return []string{p, "-NoProfile", "-NonInteractive", "-Command", script}
		}
	}
	return []string{"cmd.exe", "/c", script}
}
