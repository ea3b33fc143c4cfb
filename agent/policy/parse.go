package policy

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/agent/tools"
)

// ParseRule reads a rule as users write it in settings files —
// run_command(go test:*), edit_file(src/**), mcp__srv__tool, a bare tool
// name — and returns the rules it stands for. Claude Code's tool names are
// accepted as aliases so existing rules work unchanged; one of them may
// stand for several tandem tools (Edit covers both edit tools, Read every
// tool that reads), hence the slice. The returned rules have no Source.
func ParseRule(text string) ([]Rule, error) {
	s := strings.TrimSpace(text)
	name, spec, found := strings.Cut(s, "(")
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return nil, fmt.Errorf("rule %q: a rule needs a tool name, as in run_command(go test:*)", text)
	case strings.ContainsAny(name, " )\t"):
		return nil, fmt.Errorf("rule %q: the tool name cannot contain spaces or parentheses", text)
	case found && !strings.HasSuffix(spec, ")"):
		return nil, fmt.Errorf("rule %q: missing the closing parenthesis", text)
	}
	spec = strings.TrimSpace(strings.TrimSuffix(spec, ")"))
	if found && spec == "" {
		return nil, fmt.Errorf("rule %q: empty parentheses; drop them to cover every use of %s", text, name)
	}
	if server, ok := strings.CutSuffix(name, "__*"); ok && mcpServerRule(server) {
		name = server // mcp__github__* is every tool of the server, like mcp__github
	}
	names, claude := aliasOf(name)
	var out []Rule
	for _, tool := range names {
		r := Rule{Tool: tool, Specifier: spec}
		if spec != "" {
			var err error
			if r.Specifier, err = normalizeSpec(tool, spec, claude); err != nil {
				return nil, fmt.Errorf("rule %q: %w", text, err)
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// aliasOf maps a Claude Code tool name to the tandem tools it covers, and
// reports whether name was such an alias. Names tandem has no tool for
// (WebFetch, WebSearch) are kept: they match nothing, and /permissions
// shows them as written.
func aliasOf(name string) ([]string, bool) {
	switch name {
	case "Bash":
		return []string{tools.RunCommandName}, true
	case "Edit", "MultiEdit":
		// Claude Code's Edit rules cover every tool that changes a file.
		return []string{tools.EditFileName, tools.WriteFileName}, true
	case "Write":
		return []string{tools.WriteFileName}, true
	case "Read":
		// And its Read rules every tool that reads one.
		return []string{tools.ReadFileName, tools.ListFilesName, tools.SearchFilesName, tools.ListCodeDefinitionNamesName}, true
	case "Glob", "LS":
		return []string{tools.ListFilesName}, true
	case "Grep":
		return []string{tools.SearchFilesName}, true
	}
	return []string{name}, false
}

// ClaudeNames returns the Claude Code tool names that stand for tool in
// aliasOf, the most specific first (run_command: Bash; edit_file: Edit, MultiEdit), so that what
// matches Claude Code's names elsewhere (hook matchers) reads them the way
// the rules do.
func ClaudeNames(tool string) []string {
	var out []string
	for _, c := range []string{"Bash", "Edit", "MultiEdit", "Write", "Read", "Glob", "LS", "Grep"} {
		if names, _ := aliasOf(c); slices.Contains(names, tool) {
			out = append(out, c)
		}
	}
	// The most specific first: list_files is Glob before it is Read.
	slices.SortStableFunc(out, func(a, b string) int {
		na, _ := aliasOf(a)
		nb, _ := aliasOf(b)
		return len(na) - len(nb)
	})
	return out
}

// normalizeSpec checks a specifier for tool and writes it the one way the
// matcher reads it: "ls *" (Claude Code's newer prefix form) becomes
// "ls:*"; Claude Code's "/x" is root-relative and "//x" absolute, while
// tandem's own "/x" is absolute already. A path pattern is matched as in
// .gitignore: with no slash (x.env) at any depth, anchored at the root
// with one (src/**) or a leading ./ (./x.env).
func normalizeSpec(tool, spec string, claude bool) (string, error) {
	if tool == tools.RunCommandName {
		if rest, ok := strings.CutSuffix(spec, " *"); ok && !strings.HasSuffix(spec, ":*") {
			spec = strings.TrimSpace(rest) + ":*"
		}
		if _, _, err := (Rule{Tool: tool, Specifier: spec}).commandPattern(); err != nil {
			return "", err
		}
		return spec, nil
	}
	if strings.HasPrefix(tool, "mcp__") || !pathTool(tool) {
		return spec, nil
	}
	switch {
	case strings.HasPrefix(spec, "//"):
		spec = "/" + strings.TrimLeft(spec, "/")
	case claude && strings.HasPrefix(spec, "/"):
		spec = "./" + strings.TrimLeft(spec, "/")
	}
	if rest, ok := strings.CutPrefix(spec, "./"); ok && strings.Contains(strings.TrimSuffix(rest, "/"), "/") {
		// Anchored by its inner slash already; ./ stays only where it is
		// what anchors a bare name.
		spec = rest
	}
	for _, seg := range strings.Split(strings.TrimPrefix(spec, "~/"), "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return "", fmt.Errorf("%q is not a valid glob: %w", seg, err)
		}
		if seg == ".." {
			return "", errors.New("a path rule cannot climb with ..; write the path from the workspace root, ~/ or /")
		}
	}
	return spec, nil
}

// pathTool reports whether tool's rules name paths.
func pathTool(tool string) bool {
	switch tool {
	case tools.EditFileName, tools.WriteFileName, tools.ReadFileName, tools.ListFilesName,
		tools.SearchFilesName, tools.ListCodeDefinitionNamesName:
		return true
	}
	return false
}
