package acp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// customFixture lays out agent/custom's fixtures: the project's folders in
// a fresh workspace, $TANDEM_HOME's and the user's home (~/.claude) beside
// it. It returns the workspace, TANDEM_HOME and HOME.
func customFixture(t *testing.T) (dir, home, userHome string) {
	t.Helper()
	fixtures := filepath.Join("..", "agent", "custom", "testdata")
	dir = workspace(t, map[string]string{"src/main.go": "package main // on disk\n"})
	testenv.CopyTree(t, filepath.Join(fixtures, "project"), dir)
	home, userHome = t.TempDir(), t.TempDir()
	testenv.CopyTree(t, filepath.Join(fixtures, "tandemhome"), home)
	testenv.CopyTree(t, filepath.Join(fixtures, "userhome"), userHome)
	return dir, home, userHome
}

// The fixtures' commands and skills are advertised with their hints; a
// command expands $ARGUMENTS and includes @src/main.go as the editor's
// unsaved buffer, under its own model; a skill's body reaches the model
// only once it calls the skill tool; and the request prefix never changes.
func TestCustomCommandsAndSkills(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{Text: []string{"Reviewed."}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "sk1", Name: "skill", Args: `{"name":"changelog"}`, Split: 2}}},
		llmtest.Reply{Text: []string{"Changelog written."}},
	)
	dir, home, userHome := customFixture(t)
	ed := newEditor(t)
	main := filepath.Join(dir, "src", "main.go")
	ed.buffers[main] = "package main // unsaved buffer\n"
	p := startCmd(t, exec.Command("env", "HOME="+userHome, testenv.Tandem(t), "acp"), srv, home, ed)
	p.initialize(t, true, false)
	sid := p.newSession(t, dir)

	// Advertised: built-ins, project, user and Claude Code commands, and
	// skills; never the broken file or the one that clashes with /init.
	var cmds []agent.Command
	ed.await(t, "available_commands_update", func() bool {
		for _, r := range ed.sessionUpdates(sid) {
			if r.u.Type == agent.AvailableCommandsUpdate {
				cmds = r.u.Commands
				return true
			}
		}
		return false
	})
	byName := map[string]agent.Command{}
	for _, c := range cmds {
		if _, dup := byName[c.Name]; dup {
			t.Errorf("/%s is listed twice", c.Name)
		}
		byName[c.Name] = c
	}
	for _, name := range []string{"brand-voice", "changelog", "commit", "explain", "frontend:component", "pdf-forms", "review", "standup", "standup-notes", "init", "mode"} {
		if _, ok := byName[name]; !ok {
			t.Errorf("/%s is not offered: %v", name, cmds)
		}
	}
	for _, name := range []string{"broken", "no-desc", "notes"} {
		if _, ok := byName[name]; ok {
			t.Errorf("/%s is offered though its file is broken or no command", name)
		}
	}
	if c := byName["init"]; !strings.Contains(c.Description, "AGENTS.md") {
		t.Errorf("/init is not the built-in: %+v", c)
	}
	if c := byName["review"]; c.Input == nil || c.Input.Hint != "<file> [focus]" || !strings.HasPrefix(c.Description, "Review a file") {
		t.Errorf("review advertised as %+v", c)
	}
	if c := byName["commit"]; c.Input == nil || c.Input.Hint != "[message]" {
		t.Errorf("Claude Code's bracketed hint: %+v", c.Input)
	}

	reason, err := p.prompt(t, sid, "/review src/main.go naming")
	if err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("/review: %q, %v", reason, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests after /review, want 1", len(reqs))
	}
	wantText := "Review src/main.go naming carefully.\nLook first at @src/main.go and report bugs before style.\n\n" +
		"<file path=\"src/main.go\">\npackage main // unsaved buffer\n\n</file>"
	if got := reqs[0].LastUserText(); got != wantText {
		t.Errorf("/review reached the model as\n%q\nwant\n%q", got, wantText)
	}
	if reqs[0].Model != "review-model" {
		t.Errorf("/review ran on %q, want its frontmatter's review-model", reqs[0].Model)
	}
	text := ed.agentText(sid)
	for _, problem := range []string{".tandem/commands/broken.md", "/init is a built-in command", ".claude/skills/no-desc/SKILL.md"} {
		if !strings.Contains(text, problem) {
			t.Errorf("the editor was not told about %q:\n%s", problem, text)
		}
	}

	if !strings.Contains(reqs[0].System, "- changelog: Write release notes") || !strings.Contains(reqs[0].System, "- standup-notes: Turn a day's commits") {
		t.Errorf("the system prompt does not list the skills:\n%s", reqs[0].System)
	}
	// A command file added now is offered from the next prompt on.
	if err := os.WriteFile(filepath.Join(dir, ".tandem", "commands", "added.md"), []byte("Added later."), 0o644); err != nil {
		t.Fatal(err)
	}
	if reason, err := p.prompt(t, sid, "write the changelog"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("changelog prompt: %q, %v", reason, err)
	}
	var lists int
	for _, r := range ed.sessionUpdates(sid) {
		if r.u.Type == agent.AvailableCommandsUpdate {
			lists++
			if lists == 2 && (len(r.u.Commands) != len(cmds)+1 || !strings.Contains(r.raw, `"name":"added"`)) {
				t.Errorf("the refreshed list lacks /added: %s", r.raw)
			}
		}
	}
	if lists != 2 {
		t.Errorf("%d available_commands_update, want the first and one after the new file", lists)
	}
	reqs = srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	const marker = "CHANGELOG-SKILL-BODY-MARKER"
	for i, r := range reqs[:2] {
		if strings.Contains(string(r.Body), marker) {
			t.Errorf("request %d carries the skill's body before the skill tool was called", i)
		}
	}
	got := reqs[2].LastUserText()
	if !strings.Contains(got, marker) || !strings.Contains(got, filepath.Join(dir, ".tandem", "skills", "changelog")) {
		t.Errorf("the skill tool's result lacks the body or the folder:\n%s", got)
	}
	for i := 1; i < len(reqs); i++ {
		if err := llmtest.PrefixKept(reqs[i-1], reqs[i]); err != nil {
			t.Error(err)
		}
	}
}

// await waits until ok holds, checking it again at each update,
// withdrawal or elicitation the editor records.
func (e *editor) await(t *testing.T, what string, ok func() bool) {
	t.Helper()
	if !e.changes.Wait(10*time.Second, ok) {
		t.Fatalf("timed out waiting for %s", what)
	}
}
