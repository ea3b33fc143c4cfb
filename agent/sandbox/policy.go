package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tandemhq/tandem/internal/pathx"
)

// The modes of "sandbox": {"mode": …} in config.json.
const (
	ModeWorkspaceWrite = "workspace-write" // the default where supported
	ModeReadOnly       = "read-only"       // writes only to the temp directory
	ModeOff            = "off"
)

// HelperArg is the first argument that turns tandem into the small helper
// that sets up the confinement in the child and then execs the command.
// Landlock restricts the calling process, so it has to be applied in the
// child, between fork and exec; Go offers no hook there, so the child is
// tandem itself.
const HelperArg = "__sandbox-exec"

// SettingsEnv carries the user's sandbox settings from cmd/tandem's main to
// the command runner, whichever front door (acp, lsp, run) started it. It is
// never passed on to a command.
const SettingsEnv = "TANDEM_SANDBOX"

// Settings are the user's choices, from config.json.
type Settings struct {
	Mode          string   `json:"mode,omitempty"`
	Network       string   `json:"network,omitempty"` // "allow" (default) | "deny"
	WritablePaths []string `json:"writablePaths,omitempty"`
	// Helper is the executable that understands HelperArg (tandem's own
	// path); empty means Landlock cannot be applied from this process.
	Helper string `json:"helper,omitempty"`
	// EnvAllow names secret-looking variables the user lets through.
	EnvAllow []string `json:"envAllow,omitempty"`
	// Hidden are files and directories commands must not read (what of
	// $TANDEM_HOME holds keys or conversations).
	Hidden []string `json:"hidden,omitempty"`
}

// Validate reports a mode or network value tandem does not know.
func (s Settings) Validate() error {
	switch s.Mode {
	case "", ModeWorkspaceWrite, ModeReadOnly, ModeOff:
	default:
		return fmt.Errorf("sandbox: mode %q: use workspace-write, read-only or off", s.Mode)
	}
	switch s.Network {
	case "", "allow", "deny":
	default:
		return fmt.Errorf("sandbox: network %q: use allow or deny", s.Network)
	}
	return nil
}

// Encode is the value of SettingsEnv for s.
func (s Settings) Encode() string {
	b, _ := json.Marshal(s) // plain strings: cannot fail
	return string(b)
}

// DecodeSettings reads SettingsEnv's value; empty or malformed means the
// zero Settings (no helper, so no Landlock, but still a PID namespace).
func DecodeSettings(v string) Settings {
	var s Settings
	if v != "" {
		_ = json.Unmarshal([]byte(v), &s)
	}
	return s
}

// Policy is what one command is confined to.
type Policy struct {
	Mode        string
	Roots       []string // the session root(s): writable, protected entries excepted
	Writable    []string // extra writable paths (temp directory, configured ones)
	Hidden      []string // files shown as /dev/null, directories as an empty read-only one
	NetworkDeny bool
}

// PolicyFor is the policy for a command run in dir under s.
func PolicyFor(s Settings, dir string) Policy {
	mode := s.Mode
	if mode == "" {
		mode = ModeWorkspaceWrite
	}
	p := Policy{Mode: mode, NetworkDeny: s.Network == "deny"}
	p.Writable = append(p.Writable, os.TempDir())
	for _, w := range s.WritablePaths {
		if strings.HasPrefix(w, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				w = filepath.Join(home, w[2:])
			}
		}
		if filepath.IsAbs(w) {
			p.Writable = append(p.Writable, filepath.Clean(w))
		}
	}
	if mode == ModeWorkspaceWrite && dir != "" {
		p.Roots = []string{dir}
	}
	for _, h := range s.Hidden {
		// Never hide the workspace itself (a session inside $TANDEM_HOME).
		if _, inside := pathx.Within(h, dir); filepath.IsAbs(h) && !inside {
			p.Hidden = append(p.Hidden, filepath.Clean(h))
		}
	}
	return p
}

// protectedNames are the entries of a root that stay read-only even when
// the root is writable: what runs on the user's next git command, what
// steers the next agent, and editor settings that can run tasks.
var protectedNames = []string{
	".git/hooks", ".git/config",
	"AGENTS.md", "AGENTS.local.md", "CLAUDE.md", "CLAUDE.local.md",
	".tandem", ".vscode", ".claude", ".agents",
}

// Protected lists the protected entries that exist in root, including the
// *.code-workspace files at its top.
func Protected(root string) []string {
	var out []string
	for _, n := range protectedNames {
		p := filepath.Join(root, n)
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	if ws, err := filepath.Glob(filepath.Join(root, "*.code-workspace")); err == nil {
		out = append(out, ws...)
	}
	return out
}

// protectedText names protectedNames for the model, in words.
const protectedText = ".git/hooks, .git/config, instruction files, .tandem/ and .vscode/"

// Confines reports whether commands run under s are confined by Landlock
// and, when not, why, in a sentence fragment.
func (s Settings) Confines() (bool, string) {
	if s.Helper == "" {
		return false, "tandem runs commands without its sandbox helper"
	}
	if s.Mode == ModeOff {
		return false, `the sandbox is turned off ("sandbox": {"mode": "off"} in config.json)`
	}
	if ok, why := Available(); !ok {
		return false, why
	}
	return true, ""
}

// Describe says in a sentence what a command run in dir under s may do:
// what the model reads when the sandbox blocked something. roots are the
// session's other roots, writable like dir, so the model is told every
// place it may write, not only the first.
func (s Settings) Describe(dir string, roots ...string) string {
	p := PolicyFor(s, dir)
	var b strings.Builder
	b.WriteString("Commands run in a sandbox: ")
	switch {
	case p.Mode == ModeReadOnly:
		b.WriteString("the workspace is read-only; writes go only to ")
	case len(roots) == 0:
		fmt.Fprintf(&b, "writes go only to the workspace (%s, except %s, which are read-only) and ", dir, protectedText)
	default:
		fmt.Fprintf(&b, "writes go only to the workspace roots (%s; in each, %s are read-only) and ",
			strings.Join(append([]string{dir}, roots...), ", "), protectedText)
	}
	b.WriteString(strings.Join(p.Writable, ", "))
	if p.NetworkDeny {
		b.WriteString("; network connections are refused")
	}
	b.WriteString(".")
	return b.String()
}
