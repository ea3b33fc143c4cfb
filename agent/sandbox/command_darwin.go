package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/tandemhq/tandem/internal/proc"
	"github.com/tandemhq/tandem/internal/shell"
)

// sandboxExec is macOS's Seatbelt front end: it applies a profile to
// itself and execs the command, which inherits it with every process it
// starts.
const sandboxExec = "/usr/bin/sandbox-exec"

// Available reports whether commands can be confined by Seatbelt here.
func Available() (bool, string) {
	if _, err := os.Stat(sandboxExec); err != nil {
		return false, sandboxExec + " is missing, so commands run unconfined"
	}
	return true, ""
}

// Command builds the command that runs `sh -c script` under p: through
// sandbox-exec with the Seatbelt profile p makes (see seatbeltProfile)
// unless there is no helper (tandem was not set up to confine, as in a
// library caller's tests) or p's mode is off; as a process group of its
// own either way.
func Command(p Policy, helper, script string) *Cmd {
	return Program(p, helper, shell.Argv(script))
}

// Program is Command for a program and its arguments, run without a shell
// (a plugin's main): argv[0] is looked up in PATH.
func Program(p Policy, helper string, argv []string) *Cmd {
	if helper != "" && p.Mode != ModeOff {
		if ok, _ := Available(); ok {
			profile := seatbeltProfile(realPaths(p))
			argv = append([]string{sandboxExec, "-p", profile}, argv...)
		}
	}
	c := exec.Command(argv[0], argv[1:]...)
	proc.Group(c)
	return &Cmd{Cmd: c}
}

// realPaths resolves p's paths through symlinks: Seatbelt matches the
// path the kernel sees, and on macOS /tmp and /var (where $TMPDIR lives)
// are symlinks into /private. The symlinked /tmp is made writable too,
// since programs write there as often as to $TMPDIR.
func realPaths(p Policy) Policy {
	resolve := func(list []string) []string {
		out := make([]string, 0, len(list))
		for _, x := range list {
			if r, err := filepath.EvalSymlinks(x); err == nil {
				x = r
			}
			out = append(out, x)
		}
		return out
	}
	p.Roots = resolve(p.Roots)
	p.Writable = resolve(append(p.Writable, "/tmp"))
	p.Hidden = resolve(p.Hidden)
	return p
}
