package custom

import (
	"embed"
	"fmt"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/internal/frontmatter"
)

// Subagent is an agent definition: a system prompt and the tools a child
// session started through the task tool may use.
type Subagent struct {
	Name        string
	Description string
	// Groups are the tool groups the child is offered; a definition that
	// names none gets read-only tools.
	Groups []string
	// Model is the model id the child uses; empty inherits the parent's.
	Model string
	// Prompt is the body: the child's system prompt.
	Prompt string
	// Path is the file the definition came from.
	Path string
	// Ignored lists tool names the definition gives that tandem has no
	// counterpart for (Claude Code's WebFetch, for one).
	Ignored []string
}

// agentHeader is an agent file's frontmatter, in tandem's and Claude Code's
// shared shape (Claude Code's other keys, such as color, are ignored).
type agentHeader struct {
	Name        string           `yaml:"name"`
	Description string           `yaml:"description"`
	Tools       frontmatter.List `yaml:"tools"`
	Model       string           `yaml:"model"`
}

// claudeModelAliases name a model family, not a model; tandem cannot map
// them onto the configured provider, so they inherit the parent's model.
var claudeModelAliases = []string{"", "inherit", "sonnet", "opus", "haiku"}

// ToolGroup names the group of one of tandem's tools ("read_file" ->
// "read"); ok is false for a name it does not know. The caller supplies it
// from its tool registry, which this package does not import.
type ToolGroup func(name string) (group string, ok bool)

// ParseSubagent reads one agent file. slug, the file name without .md, is
// the name when the header gives none; known resolves tandem tool names in
// its tools list (nil: only groups and Claude Code's names are known).
func ParseSubagent(slug, file string, data []byte, known ToolGroup) (Subagent, error) {
	var h agentHeader
	body, err := frontmatter.Parse(data, &h)
	if err != nil {
		return Subagent{}, err
	}
	a := Subagent{Name: strings.TrimSpace(h.Name), Description: strings.TrimSpace(h.Description),
		Prompt: strings.TrimSpace(body), Path: file}
	if a.Name == "" {
		a.Name = slug
	}
	if err := checkSlug(a.Name); err != nil {
		return Subagent{}, fmt.Errorf("name: %w", err)
	}
	if a.Description == "" {
		return Subagent{}, fmt.Errorf("description is missing: the model picks an agent by it")
	}
	if a.Prompt == "" {
		return Subagent{}, fmt.Errorf("the body is empty: it is the agent's system prompt")
	}
	if m := strings.TrimSpace(h.Model); !slices.Contains(claudeModelAliases, strings.ToLower(m)) {
		a.Model = m
	}
	for _, name := range h.Tools {
		g, ok := toolGroup(name, known)
		switch {
		case !ok:
			a.Ignored = append(a.Ignored, name)
		case g != "" && !slices.Contains(a.Groups, g):
			a.Groups = append(a.Groups, g)
		}
	}
	if len(a.Groups) == 0 {
		a.Groups = []string{"read"}
	}
	return a, nil
}

// claudeTools maps Claude Code's tool names onto tandem's groups. Task maps
// to no group: a child never starts children of its own.
var claudeTools = map[string]string{
	"Read": "read", "Grep": "read", "Glob": "read", "LS": "read", "NotebookRead": "read",
	"Edit": "edit", "MultiEdit": "edit", "Write": "edit", "NotebookEdit": "edit",
	"Bash": "execute", "BashOutput": "execute", "KillShell": "execute",
	"TodoWrite": "plan", "Task": "",
}

// toolGroup maps one entry of a tools list: a tandem group, a tandem tool
// name, a Claude Code tool name (with or without a "(specifier)") or an
// MCP tool. ok is false for a name tandem does not know.
func toolGroup(name string, known ToolGroup) (g string, ok bool) {
	if slices.Contains(knownGroups, strings.ToLower(name)) {
		return strings.ToLower(name), true
	}
	if strings.HasPrefix(name, "mcp__") {
		return "mcp", true
	}
	if known != nil {
		if g, ok := known(name); ok {
			return g, true
		}
	}
	base, _, _ := strings.Cut(name, "(")
	g, ok = claudeTools[strings.TrimSpace(base)]
	return g, ok
}

//go:embed builtin/agents/*.md
var builtinAgentFiles embed.FS

// BuiltinSubagents returns the agent definitions that ship inside the
// binary (explore). Like BuiltinModes it panics on a broken embedded file.
func BuiltinSubagents() []Subagent {
	entries, err := builtinAgentFiles.ReadDir("builtin/agents")
	if err != nil {
		panic(fmt.Sprintf("custom: built-in agents: %v", err))
	}
	var out []Subagent
	for _, e := range entries {
		file := "builtin/agents/" + e.Name()
		data, err := builtinAgentFiles.ReadFile(file)
		if err == nil {
			var a Subagent
			if a, err = ParseSubagent(strings.TrimSuffix(e.Name(), ".md"), file, data, nil); err == nil {
				out = append(out, a)
				continue
			}
		}
		panic(fmt.Sprintf("custom: built-in agent %s: %v", file, err))
	}
	return out
}

// LoadSubagents returns the agent definitions in dirs, listed in precedence
// order (project before user), followed by the built-in ones; a name found
// twice keeps its first definition, so a project file named explore
// replaces the built-in. The result is sorted by name. Files that do not
// parse are returned as errors and skipped.
func LoadSubagents(known ToolGroup, dirs ...string) ([]Subagent, []error) {
	var (
		out  []Subagent
		errs []error
		seen = map[string]bool{}
	)
	add := func(a Subagent) {
		if !seen[a.Name] {
			seen[a.Name] = true
			out = append(out, a)
		}
	}
	for _, dir := range dirs {
		as, aerrs := readSubagents(dir, known)
		errs = append(errs, aerrs...)
		for _, a := range as {
			add(a)
		}
	}
	for _, a := range BuiltinSubagents() {
		add(a)
	}
	slices.SortStableFunc(out, func(a, b Subagent) int { return strings.Compare(a.Name, b.Name) })
	return out, errs
}

// readSubagents parses the agent files in dir, in file order. A file that
// does not parse is an error and skipped; tools a file names that tandem
// does not have are an error too, but the agent loads without them.
func readSubagents(dir string, known ToolGroup) ([]Subagent, []error) {
	files, errs := readDefFiles(dir)
	var out []Subagent
	for _, f := range files {
		a, err := ParseSubagent(f.slug, f.path, f.data, known)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.path, err))
			continue
		}
		if len(a.Ignored) > 0 {
			errs = append(errs, fmt.Errorf("%s: tools tandem does not have are left out: %s", f.path, strings.Join(a.Ignored, ", ")))
		}
		out = append(out, a)
	}
	return out, errs
}
