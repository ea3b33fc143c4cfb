package policy

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/tandemhq/tandem/agent/tools"
)

// Grant is what an "Always allow" or "Always reject" answer would remember.
type Grant struct {
	// Option is the permission option's name; it says exactly what is
	// remembered ("Always allow `go test …` in this project": the session
	// saves it to the project's personal settings file).
	Option string
	Rules  []Rule
}

// proposeAllow is the grant "Always allow" offers for t, or nil when none
// can be scoped to what is being approved.
func proposeAllow(t target, rs Rules) *Grant {
	var rules []Rule
	switch t.kind {
	case kindPath:
		rules = pathRules(t)
	case kindCommand:
		if t.cmd.opaque != "" {
			return nil
		}
		for _, words := range t.cmd.simple {
			if anyCommandRule(rs.Allow, t.Tool, words) {
				continue // already granted: the option names only what is new
			}
			r, ok := prefixRule(t.Tool, words)
			if !ok || runner(words[0].text) {
				return nil
			}
			if !slices.Contains(rules, r) {
				rules = append(rules, r)
			}
		}
	case kindTool:
		if t.Group == tools.GroupMCP {
			rules = []Rule{{Tool: t.Tool}}
		}
	}
	if len(rules) == 0 {
		return nil
	}
	return &Grant{Option: "Always allow " + describe(rules) + " in this project", Rules: rules}
}

// proposeReject is the grant "Always reject" offers. For a command it is
// the prefix of a lone simple command: rejecting `a && b` says nothing
// about a or b alone.
func proposeReject(t target) *Grant {
	var rules []Rule
	switch t.kind {
	case kindPath:
		rules = pathRules(t)
	case kindCommand:
		if len(t.cmd.simple) != 1 {
			return nil
		}
		r, ok := prefixRule(t.Tool, t.cmd.simple[0])
		if !ok {
			return nil
		}
		rules = []Rule{r}
	case kindTool:
		if t.Group == tools.GroupMCP {
			rules = []Rule{{Tool: t.Tool}}
		}
	}
	if len(rules) == 0 {
		return nil
	}
	return &Grant{Option: "Always reject " + describe(rules) + " in this project", Rules: rules}
}

// pathRules scope an edit grant: the directory tree the file is in, or the
// file alone when it sits at the root (a tree there would be the whole
// workspace, which is what auto-edit mode is for).
func pathRules(t target) []Rule {
	if t.protected || t.rel == "" || strings.ContainsAny(t.rel, "*?[\\") {
		// A name with glob characters would match more than itself.
		return nil
	}
	spec := "./" + t.rel // anchored: main.go alone would match at any depth
	if dir := path.Dir(t.rel); dir != "." {
		spec = dir + "/**"
	}
	names := []string{t.Tool}
	if isEditTool(t.Tool) {
		// One grant for both: "edits in src/" means whichever tool writes.
		names = []string{tools.EditFileName, tools.WriteFileName}
	}
	rules := make([]Rule, len(names))
	for i, n := range names {
		rules[i] = Rule{Tool: n, Specifier: spec}
	}
	return rules
}

// prefixRule is the rule for a simple command's program and subcommand:
// go test:* from `go test ./...`, ls:* from `ls -la`.
func prefixRule(tool string, words []word) (Rule, bool) {
	if len(words) == 0 || !words[0].exact || words[0].text == "" {
		return Rule{}, false
	}
	prefix := []string{words[0].text}
	if len(words) > 1 && words[1].exact && subcommand(words[1].text) {
		prefix = append(prefix, words[1].text)
	}
	quoted := make([]string, len(prefix))
	for i, w := range prefix {
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			return Rule{}, false
		}
		quoted[i] = q
	}
	return Rule{Tool: tool, Specifier: strings.Join(quoted, " ") + ":*"}, true
}

// subcommand reports whether w reads like a subcommand (test, run, build:all)
// rather than a flag, a path or a file name.
func subcommand(w string) bool {
	if w == "" || !('a' <= w[0] && w[0] <= 'z' || 'A' <= w[0] && w[0] <= 'Z') {
		return false
	}
	for _, r := range w {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '-', r == '_', r == ':':
		default:
			return false
		}
	}
	return true
}

// runner reports whether program's arguments are another command, so a
// grant for it would allow anything; such commands ask every time.
func runner(program string) bool {
	switch path.Base(program) {
	case ".", "bash", "builtin", "command", "dash", "doas", "env", "eval", "exec", "fish", "ksh",
		"nice", "nohup", "setsid", "sh", "source", "su", "sudo", "timeout", "xargs", "zsh":
		return true
	}
	return false
}

func isEditTool(name string) bool {
	return name == tools.EditFileName || name == tools.WriteFileName
}

// describe names what rules cover, for an option or a message:
// "`go test …` and `go vet …`", "edits in src/", "`echo` (MCP server srv)".
func describe(rules []Rule) string {
	var parts []string
	for _, r := range rules {
		d := describeRule(r)
		if !slices.Contains(parts, d) {
			parts = append(parts, d)
		}
	}
	switch len(parts) {
	case 0:
		return "nothing"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func describeRule(r Rule) string {
	switch {
	case r.Specifier == "" && strings.HasPrefix(r.Tool, "mcp__"):
		if server, tool, ok := strings.Cut(strings.TrimPrefix(r.Tool, "mcp__"), "__"); ok {
			return "`" + tool + "` (MCP server " + server + ")"
		}
		return "every tool of MCP server " + strings.TrimPrefix(r.Tool, "mcp__")
	case r.Specifier == "":
		return "every use of " + r.Tool
	case r.Tool == tools.RunCommandName:
		if spec, ok := strings.CutSuffix(r.Specifier, ":*"); ok {
			return "`" + spec + " …`"
		}
		return "`" + r.Specifier + "`"
	}
	noun := "uses of " + r.Tool
	if isEditTool(r.Tool) {
		noun = "edits"
	}
	spec := strings.TrimPrefix(r.Specifier, "./")
	switch {
	case spec == "**":
		return noun + " anywhere in the workspace"
	case strings.HasSuffix(spec, "/**") && !strings.ContainsAny(strings.TrimSuffix(spec, "/**"), "*?["):
		return noun + " in " + strings.TrimSuffix(spec, "**")
	case strings.ContainsAny(spec, "*?["):
		return noun + " matching " + spec
	}
	if noun == "edits" {
		return "edits to " + spec
	}
	return noun + " on " + spec
}
