package local

import (
	"os"
	"strings"

	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/sandbox"
)

// refusalWords are how programs print the errors the sandbox causes:
// Landlock answers EACCES (a refused write or TCP connect), EPERM, or
// EXDEV (a link or rename across a boundary it guards); the read-only
// binds of protected entries answer EROFS, or EBUSY to a rename onto them.
var refusalWords = []string{"Permission denied", "Operation not permitted", "Read-only file system",
	"Device or resource busy", "Invalid cross-device link"}

// netRefusalWords are how clients that hide the errno (curl, git, npm)
// report a connection Landlock refused; they count only when the network
// is denied, since a server that is down reads the same.
var netRefusalWords = []string{"Couldn't connect", "Could not connect", "Failed to connect", "Network is unreachable"}

// blocked is what the sandbox seems to have refused a command that failed
// under it: the first output line naming such an error, with what
// commands may do (every root the spec may write). "" when the output shows none. The errors are the
// kernel's, so other causes (a file the user cannot write anyway) read the
// same; the note says "seems".
func blocked(s sandbox.Settings, spec command.Spec, res command.Result) string {
	if res.ExitCode == 0 && res.Signal == "" {
		return ""
	}
	words := refusalWords
	if s.Network == "deny" {
		words = append(words[:len(words):len(words)], netRefusalWords...)
	}
	for line := range strings.Lines(res.Output) {
		for _, w := range words {
			if strings.Contains(line, w) {
				line = strings.TrimSpace(line)
				if len(line) > 300 {
					line = line[:300] + "…"
				}
				return "The sandbox seems to have blocked this command: " + line + "\n" + s.Describe(spec.Dir, spec.Roots...)
			}
		}
	}
	return ""
}

// CommandConfinement says whether this host's commands run confined, from
// the settings cmd/tandem handed over.
func (Host) CommandConfinement() command.Confinement {
	return confinement(settingsFromEnv())
}

func settingsFromEnv() sandbox.Settings {
	return sandbox.DecodeSettings(os.Getenv(sandbox.SettingsEnv))
}

func confinement(s sandbox.Settings) command.Confinement {
	ok, why := s.Confines()
	return command.Confinement{Known: s.Helper != "", Confined: ok, Why: why,
		Notice: s.Helper != "" && !ok && s.Mode != sandbox.ModeOff}
}
