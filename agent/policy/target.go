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
	// Home is the user's home directory, for path rules written ~/…; empty:
	// such rules match nothing.
	Home string
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
	rel       string     // kindPath: Path relative to Root, slash-separated
	protected bool       // kindPath: tools.Protected
	cmd       *command   // kindCommand
	rule      pathx.Rule // how path rules compare names: the OS's
}

type targetKind int

const (
	kindTool    targetKind = iota // nothing finer than the tool: MCP tools, tools without a target
	kindPath                      // an edit of one file
	kindCommand                   // a command line
)

func newTarget(c Call) target {
	t := target{Call: c, rule: pathx.Native()}
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
		return r.Specifier == "" && mcpServerRule(r.Tool) && strings.HasPrefix(t.Tool, r.Tool+"__")
	}
	if r.Specifier == "" {
		return true
	}
	switch t.kind {
	case kindPath:
		return matchPath(r.Specifier, t)
	case kindCommand:
		return false // judged per simple command by the callers below
	}
	return false
}

// mcpServerRule reports whether tool names a whole MCP server
// (mcp__github), as Claude Code lets a rule do, rather than one tool.
func mcpServerRule(tool string) bool {
	server, ok := strings.CutPrefix(tool, "mcp__")
	return ok && server != "" && !strings.Contains(server, "__")
}

// matchPath matches a path rule's specifier against the file t names:
// under the home directory for ~/…, as an absolute path for /…, else
// relative to the session root.
func matchPath(spec string, t target) bool {
	abs := filepath.ToSlash(filepath.Clean(t.Path))
	switch {
	case strings.HasPrefix(spec, "~/"):
		if t.Home == "" {
			return false
		}
		rel, ok := pathx.Within(t.Home, t.Path)
		return ok && rel != "." && matchGlob(spec[2:], filepath.ToSlash(rel), t.rule)
	case strings.HasPrefix(spec, "/"):
		return matchGlob(strings.TrimLeft(spec, "/"), strings.TrimPrefix(abs, "/"), t.rule)
	}
	if t.rel == "" {
		return false
	}
	// As in .gitignore, a pattern with no slash but a trailing one matches
	// at any depth; ./ (or a slash inside) anchors it at the root.
	if rest, ok := strings.CutPrefix(spec, "./"); ok {
		spec = rest
	} else if !strings.Contains(strings.TrimSuffix(spec, "/"), "/") {
		spec = "**/" + spec
	}
	return matchGlob(strings.TrimSuffix(spec, "/"), t.rel, t.rule)
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

// covers reports whether the allow list covers all of t, and the rule
// that did (for a compound command, the first part's): a command only
// when it is plain (not opaque) and every simple command in it matches a
// rule, so `go test ./... && rm -rf x` is not covered by go test:*.
func covers(list []Rule, t target) (Rule, bool) {
	for _, r := range list {
		if r.matchesTarget(t) {
			return r, true
		}
	}
	if t.kind != kindCommand || t.cmd.opaque != "" || len(t.cmd.simple) == 0 {
		return Rule{}, false
	}
	var first Rule
	for i, words := range t.cmd.simple {
		r, ok := commandRule(list, t.Tool, words)
		if !ok {
			return Rule{}, false
		}
		if i == 0 {
			first = r
		}
	}
	return first, true
}

func anyCommandRule(list []Rule, tool string, words []word) bool {
	_, ok := commandRule(list, tool, words)
	return ok
}

func commandRule(list []Rule, tool string, words []word) (Rule, bool) {
	for _, r := range list {
		if r.Tool == tool && r.Specifier != "" && r.matchesCommand(words) {
			return r, true
		}
	}
	return Rule{}, false
}

// shown is how a message names the call's target.
func (t target) shown() string {
	switch t.kind {
	case kindPath:
		what := "the change to "
		if t.Group == tools.GroupRead {
			what = "reading "
		}
		return what + t.pathShown()
	case kindCommand:
		return "`" + strings.TrimSpace(t.Command) + "`"
	}
	return "the call to " + t.Tool
}
