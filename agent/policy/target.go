package policy

import (
	"path/filepath"
	"strings"

	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/internal/pathx"
)

// Call is one tool call as the policy sees it.
type Call struct {
	Tool  string      // the name the model called, e.g. run_command or mcp__srv__echo
	Group tools.Group // the tool's group: the one source of its exposure and approval
	Root  string      // the session root: absolute, symlinks resolved
	// Path is the absolute file an edit writes (already resolved inside
	// Root); empty for calls that write no file.
	Path string
	// Protected is tools.Protected's answer for Path. A Path outside Root
	// counts as protected whatever this says.
	Protected bool
	// Command is run_command's exact command line.
	Command string
	// Unsandboxed marks a command the model asked to run outside the
	// sandbox; Unconfined says why the host would run commands outside it
	// anyway ("" when they are confined or the host cannot tell). See
	// sandbox.go.
	Unsandboxed bool
	Unconfined  string
}

// target is a Call with what the rules match on worked out once.
type target struct {
	Call
	kind      targetKind
	rel       string   // kindPath: Path relative to Root, slash-separated
	protected bool     // kindPath: tools.Protected
	cmd       *command // kindCommand
}

type targetKind int

const (
	kindTool    targetKind = iota // nothing finer than the tool: MCP tools, tools without a target
	kindPath                      // an edit of one file
	kindCommand                   // a command line
)

func newTarget(c Call) target {
	t := target{Call: c}
	switch {
	case c.Command != "" || c.Tool == tools.RunCommandName:
		t.kind = kindCommand
		cmd := parseCommand(c.Command)
		t.cmd = &cmd
	case c.Path != "":
		t.kind = kindPath
		t.protected = c.Protected
		if rel, ok := pathx.Within(c.Root, c.Path); ok {
			t.rel = filepath.ToSlash(rel)
		} else {
			// Outside the root (Resolve refuses such paths before any
			// ask): fail closed, and let no path rule match it.
			t.protected = true
		}
	}
	return t
}

// matchesTarget reports whether r covers t as a whole: a bare rule for the
// tool, or a path rule matching the file. Command rules are matched per
// simple command by anyPart and covers.
func (r Rule) matchesTarget(t target) bool {
	if r.Tool != t.Tool {
		return false
	}
	if r.Specifier == "" {
		return true
	}
	switch t.kind {
	case kindPath:
		return t.rel != "" && matchGlob(r.Specifier, t.rel)
	case kindCommand:
		return false // judged per simple command by the callers below
	}
	return false
}

// anyPart returns the first rule in list that matches t or, for a command,
// any one of its simple commands: the test for deny and ask rules, where a
// single matching part is enough.
func anyPart(list []Rule, t target) (Rule, bool) {
	for _, r := range list {
		if r.matchesTarget(t) {
			return r, true
		}
		if t.kind != kindCommand || r.Tool != t.Tool {
			continue
		}
		for _, words := range t.cmd.simple {
			if r.matchesCommand(words) {
				return r, true
			}
		}
	}
	return Rule{}, false
}

// covers reports whether the allow list covers all of t: a command only
// when it is plain (not opaque) and every simple command in it matches a
// rule, so `go test ./... && rm -rf x` is not covered by go test:*.
func covers(list []Rule, t target) bool {
	for _, r := range list {
		if r.matchesTarget(t) {
			return true
		}
	}
	if t.kind != kindCommand || t.cmd.opaque != "" || len(t.cmd.simple) == 0 {
		return false
	}
	for _, words := range t.cmd.simple {
		if !anyCommandRule(list, t.Tool, words) {
			return false
		}
	}
	return true
}

func anyCommandRule(list []Rule, tool string, words []word) bool {
	for _, r := range list {
		if r.Tool == tool && r.Specifier != "" && r.matchesCommand(words) {
			return true
		}
	}
	return false
}

// shown is how a message names the call's target.
func (t target) shown() string {
	switch t.kind {
	case kindPath:
		if t.rel != "" {
			return "the change to " + t.rel
		}
		return "the change to " + t.Path
	case kindCommand:
		return "`" + strings.TrimSpace(t.Command) + "`"
	}
	return "the call to " + t.Tool
}
