package custom

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/tools"
)

func names(as []Subagent) []string {
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
	as, errs := LoadSubagents(
		filepath.Join(defs, "project/.tandem/agents"),
		filepath.Join(defs, "project/.claude/agents"),
		filepath.Join(defs, "tandemhome/agents"),
		filepath.Join(defs, "userhome/.claude/agents"),
	)
	if got := strings.Join(names(as), " "); got != "explore finder fixer shell" {
		t.Fatalf("agents = %s", got)
	}
	byName := map[string]Subagent{}
	for _, a := range as {
		byName[a.Name] = a
	}
	finder := byName["finder"]
	if !strings.Contains(finder.Prompt, "FINDER-PROMPT-MARKER") || finder.Model != "" || !slices.Equal(finder.Groups, []tools.Group{tools.GroupRead}) {
		t.Errorf("finder (the project's Claude Code file) = %+v", finder)
	}
	if !slices.Equal(finder.Ignored, []string{"WebFetch"}) {
		t.Errorf("finder ignored = %v", finder.Ignored)
	}
	if fixer := byName["fixer"]; !slices.Equal(fixer.Groups, []tools.Group{tools.GroupRead, tools.GroupEdit}) {
		t.Errorf("fixer groups = %v", fixer.Groups)
	}
	if shell := byName["shell"]; shell.Model != "claude-haiku-4-5" || !slices.Equal(shell.Groups, []tools.Group{tools.GroupRead, tools.GroupExecute}) {
		t.Errorf("shell = %+v", shell)
	}
	if explore := byName["explore"]; !slices.Equal(explore.Groups, []tools.Group{tools.GroupRead}) || explore.Path != "builtin/agents/explore.md" {
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
	for name, want := range map[string]tools.Group{
		"read": tools.GroupRead, "EDIT": tools.GroupEdit, "write_file": tools.GroupEdit, "run_command": tools.GroupExecute,
		"Bash(git diff:*)": tools.GroupExecute, "TodoWrite": tools.GroupPlan, "mcp__github__list": tools.GroupMCP, "Task": "",
	} {
		if g, ok := toolGroup(name); !ok || g != want {
			t.Errorf("toolGroup(%q) = %q, %v; want %q", name, g, ok, want)
		}
	}
	if _, ok := toolGroup("WebSearch"); ok {
		t.Error("WebSearch mapped")
	}
	// A definition that grants nothing tandem knows stays read-only, and
	// one that names only Task gets no way to start children either.
	a, err := ParseSubagent("x", "x.md", []byte("---\ndescription: d\ntools: Task\n---\nbody"))
	if err != nil || !slices.Equal(a.Groups, []tools.Group{tools.GroupRead}) {
		t.Errorf("Task-only agent = %+v, %v", a, err)
	}
}
