package custom

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func agentNames(as []Subagent) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

// TestLoadSubagents reads tandem's and Claude Code's agent files: project
// before user, the built-in explore last in precedence, Claude tool names
// mapped to groups, model aliases inheriting, broken files reported.
func TestLoadSubagents(t *testing.T) {
	as, errs := LoadSubagents(nil,
		filepath.Join(defs, "project/.tandem/agents"),
		filepath.Join(defs, "project/.claude/agents"),
		filepath.Join(defs, "tandemhome/agents"),
		filepath.Join(defs, "userhome/.claude/agents"),
	)
	if got := strings.Join(agentNames(as), " "); got != "explore finder fixer shell" {
		t.Fatalf("agents = %s", got)
	}
	byName := map[string]Subagent{}
	for _, a := range as {
		byName[a.Name] = a
	}
	finder := byName["finder"]
	if !strings.Contains(finder.Prompt, "FINDER-PROMPT-MARKER") || finder.Model != "" || !slices.Equal(finder.Groups, []string{"read"}) {
		t.Errorf("finder (the project's Claude Code file) = %+v", finder)
	}
	if !slices.Equal(finder.Ignored, []string{"WebFetch"}) {
		t.Errorf("finder ignored = %v", finder.Ignored)
	}
	if fixer := byName["fixer"]; !slices.Equal(fixer.Groups, []string{"read", "edit"}) {
		t.Errorf("fixer groups = %v", fixer.Groups)
	}
	if shell := byName["shell"]; shell.Model != "claude-haiku-4-5" || !slices.Equal(shell.Groups, []string{"read", "execute"}) {
		t.Errorf("shell = %+v", shell)
	}
	if explore := byName["explore"]; !slices.Equal(explore.Groups, []string{"read"}) || explore.Path != "builtin/agents/explore.md" {
		t.Errorf("explore = %+v", explore)
	}
	joined := ""
	for _, err := range errs {
		joined += err.Error() + "\n"
	}
	if len(errs) != 2 || !strings.Contains(joined, "no-description.md: description is missing") || !strings.Contains(joined, "left out: WebFetch") {
		t.Errorf("problems = %s", joined)
	}
}

func TestToolGroup(t *testing.T) {
	known := func(name string) (string, bool) {
		g, ok := map[string]string{"write_file": "edit", "run_command": "execute"}[name]
		return g, ok
	}
	for name, want := range map[string]string{
		"read": "read", "EDIT": "edit", "write_file": "edit", "run_command": "execute",
		"Bash(git diff:*)": "execute", "TodoWrite": "plan", "mcp__github__list": "mcp", "Task": "",
	} {
		if g, ok := toolGroup(name, known); !ok || g != want {
			t.Errorf("toolGroup(%q) = %q, %v; want %q", name, g, ok, want)
		}
	}
	if _, ok := toolGroup("WebSearch", known); ok {
		t.Error("WebSearch mapped")
	}
	// A definition that grants nothing tandem knows stays read-only, and
	// one that names only Task gets no way to start children either.
	a, err := ParseSubagent("x", "x.md", []byte("---\ndescription: d\ntools: Task\n---\nbody"), nil)
	if err != nil || !slices.Equal(a.Groups, []string{"read"}) {
		t.Errorf("Task-only agent = %+v, %v", a, err)
	}
}
