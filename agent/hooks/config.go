package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"time"
)

// The events tandem runs, named as Claude Code names them.
const (
	PreToolUse       = "PreToolUse"
	PostToolUse      = "PostToolUse"
	UserPromptSubmit = "UserPromptSubmit"
	Stop             = "Stop"
	SessionStart     = "SessionStart"
	SessionEnd       = "SessionEnd"
)

const (
	// DefaultTimeout is a hook's time when it sets none, as in Claude Code.
	DefaultTimeout = 60 * time.Second
	// MaxTimeout bounds what a hook may ask for.
	MaxTimeout = 10 * time.Minute
	// maxFile caps a settings or hooks.json file read for hooks.
	maxFile = 1 << 20
)

// Config is the hooks section of one file: event name → matcher groups.
type Config map[string][]Group

// Group is one matcher with the commands it runs.
type Group struct {
	Matcher string    `json:"matcher"`
	Hooks   []Command `json:"hooks"`
}

// Command is one hook. Only type "command" is run; other types (Claude
// Code's prompt hooks) are skipped with a warning.
type Command struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout"` // seconds; 0: DefaultTimeout
}

// timeout is the hook's time, bounded.
func (c Command) timeout() time.Duration {
	d := time.Duration(c.Timeout * float64(time.Second))
	switch {
	case d <= 0:
		return DefaultTimeout
	case d > MaxTimeout:
		return MaxTimeout
	}
	return d
}

// Source is one file's hooks.
type Source struct {
	Path    string // the file, as shown to the user
	Project bool   // from the repository: needs consent
	Plugin  string // the Claude Code plugin it came with, if any
	Dir     string // the plugin's folder (CLAUDE_PLUGIN_ROOT)
	Config  Config
}

// ReadFile reads the "hooks" key of the JSON object in path. A missing
// file or key is no hooks and no error.
func ReadFile(path string) (Config, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxFile)
	}
	return Parse(b)
}

// Parse reads the hooks section of a settings or hooks.json document and
// checks it: every matcher must compile.
func Parse(b []byte) (Config, error) {
	var doc struct {
		Hooks Config `json:"hooks"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("the hooks section: %w", err)
	}
	for event, groups := range doc.Hooks {
		for _, g := range groups {
			if _, err := compileMatcher(g.Matcher); err != nil {
				return nil, fmt.Errorf("%s matcher %q: %w", event, g.Matcher, err)
			}
		}
	}
	return doc.Hooks, nil
}

// compileMatcher reads a matcher as Claude Code does: empty or "*" matches
// every tool, anything else is a regular expression that must match the
// whole name (so "Edit" is exactly Edit, "Edit|Write" either).
func compileMatcher(m string) (*regexp.Regexp, error) {
	if m == "" || m == "*" {
		return nil, nil
	}
	return regexp.Compile("^(?:" + m + ")$")
}
