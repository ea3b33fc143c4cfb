//go:build windows

package shell

import (
	"os/exec"
	"syscall"
)

// Described is how the model is told commands run (run_command's
// description).
const Described = "PowerShell (`-Command`; `cmd /c` where PowerShell is missing)"

// Argv runs script with PowerShell when there is one, else with `cmd /c`.
// PowerShell is preferred because it is on every supported Windows
// (Windows PowerShell 5.1; PowerShell 7's pwsh first when installed), and
// the commands a model writes (ls, cat, rm, mkdir -p, pipes) work there
// through its aliases far more often than in cmd. -NoProfile keeps a
// user's profile script out of every command; -NonInteractive makes a
// command that would prompt fail instead of waiting for input that never
// comes. cmd's /d likewise skips the AutoRun commands of the registry.
func Argv(script string) []string {
	for _, ps := range []string{"pwsh.exe", "powershell.exe"} {
		if p, err := exec.LookPath(ps); err == nil {
			return []string{p, "-NoProfile", "-NonInteractive", "-Command", script}
		}
	}
	return []string{"cmd.exe", "/d", "/s", "/c", script}
}

// verbatim hands cmd.exe the script as written. Go quotes each argument by
// the C runtime's rules (a quote becomes \"), which cmd does not parse: it
// reads its command line itself, so `echo "a b"` would arrive mangled.
// With /s, cmd strips exactly the first and the last quote after /c and
// runs what is between them unchanged.
func verbatim(c *exec.Cmd, argv []string, script string) {
	if argv[0] != "cmd.exe" {
		return
	}
	if c.SysProcAttr == nil {
		c.SysProcAttr = &syscall.SysProcAttr{}
	}
	c.SysProcAttr.CmdLine = `cmd.exe /d /s /c "` + script + `"`
}
