package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// customNames lists the commands that are not tandem's built-ins, so the
// tests do not change when a built-in is added.
func customNames(s *Session, cmds []Command) string {
	var out []string
	for _, c := range cmds {
		if !s.custom.builtin(c.Name) {
			out = append(out, c.Name)
		}
	}
	return strings.Join(out, ",")
}

// A command file added, changed or broken between two prompts is picked up
// by the next prompt without restarting the session, and the editor gets
// the new list.
func TestCustomCommandsRefreshBetweenPrompts(t *testing.T) {
	f := newFixture(t)
	f.srv.Handle(func(r *llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"ok"}} })
	s, h, dir := f.session(ModeCode, map[string]string{".tandem/commands/hello.md": "Say hello to $1."})
	if got := customNames(s, s.Commands()); got != "hello" {
		t.Fatalf("commands at start: %s", got)
	}
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".claude/commands/git/log.md", "---\ndescription: Show the log\n---\nShow the last $ARGUMENTS commits.")
	write(".tandem/commands/mode.md", "Shadow the built-in.")
	if _, err := s.Prompt(context.Background(), prompt("/git:log 3")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 1 || reqs[0].LastUserText() != "Show the last 3 commits." {
		t.Fatalf("the new command did not run: %d requests, last text %q", len(reqs), reqs[len(reqs)-1].LastUserText())
	}
	var lists []string
	var notices []string
	for _, u := range h.snapshot() {
		switch {
		case u.Type == AvailableCommandsUpdate:
			lists = append(lists, customNames(s, u.Commands))
		case u.Type == AgentMessageChunk && strings.Contains(u.Chunk.Text, "[tandem]"):
			notices = append(notices, u.Chunk.Text)
		}
	}
	if len(lists) != 1 || lists[0] != "git:log,hello" {
		t.Errorf("available_commands_update lists %q", lists)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], ".tandem/commands/mode.md") || !strings.Contains(notices[0], "/mode is a built-in command") {
		t.Errorf("the clash with /mode was not reported once: %q", notices)
	}
	// The built-in still runs.
	if _, err := s.Prompt(context.Background(), prompt("/mode ask")); err != nil || s.Mode() != ModeAsk {
		t.Errorf("built-in /mode after the clash: %v, mode %s", err, s.Mode())
	}
	if n := len(f.srv.Requests()); n != 1 {
		t.Errorf("/mode reached the model: %d requests", n)
	}
}

// A command's model answers its turn; the session's model is unchanged.
func TestCustomCommandModel(t *testing.T) {
	f := newFixture(t)
	f.srv.Handle(func(r *llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"ok"}} })
	s, _, _ := f.session(ModeCode, map[string]string{".tandem/commands/fast.md": "---\nmodel: small-model\n---\nBe quick."})
	for _, text := range []string{"/fast", "plain"} {
		if _, err := s.Prompt(context.Background(), prompt(text)); err != nil {
			t.Fatal(err)
		}
	}
	reqs := f.srv.Requests()
	if len(reqs) != 2 || reqs[0].Model != "small-model" || reqs[1].Model != "test-model" {
		t.Errorf("models %q then %q", reqs[0].Model, reqs[1].Model)
	}
}

// Writing into .claude/ or .agents/ asks even in full-auto: those files
// steer the agent.
func TestCustomFoldersAreProtected(t *testing.T) {
	f := newFixture(t)
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w1", "write_file", `{"path":".claude/commands/x.md","content":"Run rm -rf."}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w2", "write_file", `{"path":".agents/skills/x/SKILL.md","content":"---\ndescription: x\n---\n"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w3", "write_file", `{"path":"notes.md","content":"fine"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	s, h, _ := f.session(ModeFullAuto, nil)
	if _, err := s.Prompt(context.Background(), prompt("write them")); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.asks) != 2 || h.asks[0].ToolCall.ID != "w1" || h.asks[1].ToolCall.ID != "w2" {
		var ids []string
		for _, a := range h.asks {
			ids = append(ids, a.ToolCall.ID)
		}
		t.Errorf("full-auto asked for %v, want w1 and w2 only", ids)
	}
}

// A skill added mid-session reaches the model as a reminder with the next
// prompt, never by rewriting the system prompt.
func TestSkillAddedMidSession(t *testing.T) {
	f := newFixture(t)
	f.srv.Handle(func(r *llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"ok"}} })
	s, _, dir := f.session(ModeCode, nil)
	if _, err := s.Prompt(context.Background(), prompt("one")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, ".tandem", "skills", "deploy", "SKILL.md")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte("---\ndescription: Deploy the app.\n---\nRun make deploy."), 0o644)
	for _, text := range []string{"two", "three"} {
		if _, err := s.Prompt(context.Background(), prompt(text)); err != nil {
			t.Fatal(err)
		}
	}
	reqs := f.srv.Requests()
	if reqs[0].System != reqs[2].System || strings.Contains(reqs[2].System, "deploy") {
		t.Errorf("the system prompt changed mid-session")
	}
	if !strings.Contains(reqs[1].LastUserText(), "- deploy: Deploy the app.") || strings.Contains(reqs[2].LastUserText(), "deploy") {
		t.Errorf("the reminder: second prompt %q, third %q", reqs[1].LastUserText(), reqs[2].LastUserText())
	}
	if !slices.Contains(reqs[1].Tools, "skill") || slices.Contains(reqs[0].Tools, "skill") {
		t.Errorf("the skill tool: first request %v, second %v", reqs[0].Tools, reqs[1].Tools)
	}
}

// A workspace that contains $TANDEM_HOME (a session in the home folder)
// asks before writing there, even in full-auto.
func TestTandemHomeInWorkspaceIsProtected(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	f.agent.cfg.Home = filepath.Join(dir, "config", "tandem")
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w1", "write_file", `{"path":"config/tandem/commands/x.md","content":"x"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	h := &testHost{}
	s, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: dir, Mode: ModeFullAuto, Host: h})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Prompt(context.Background(), prompt("write it")); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.asks) != 1 {
		t.Errorf("full-auto asked %d times for a write into TANDEM_HOME, want 1", len(h.asks))
	}
}

// A plugin's folders (Config.CustomSources) add namespaced commands and
// skills beside the session's own.
func TestCustomSourcesFromPlugins(t *testing.T) {
	plugin := t.TempDir()
	for rel, content := range map[string]string{
		"commands/hello.md":        "Hello from the plugin, $ARGUMENTS.",
		"skills/lint/SKILL.md":     "---\ndescription: Lint the code.\n---\nRun the linter.",
		"commands/nested/deep.md":  "Deep.",
		"skills/not-a-skill/x.txt": "",
	} {
		p := filepath.Join(plugin, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	f := newFixture(t, func(c *Config) {
		c.CustomSources = func(string) []custom.Source {
			return []custom.Source{
				{Dir: filepath.Join(plugin, "commands"), Kind: custom.KindCommands, Scope: custom.ScopePlugin, Namespace: "acme"},
				{Dir: filepath.Join(plugin, "skills"), Kind: custom.KindSkills, Scope: custom.ScopePlugin, Namespace: "acme"},
			}
		}
	})
	f.srv.Handle(func(r *llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"ok"}} })
	s, _, _ := f.session(ModeCode, nil)
	if got := customNames(s, s.Commands()); got != "acme:hello,acme:lint,acme:nested:deep" {
		t.Errorf("commands %s", got)
	}
	if _, err := s.Prompt(context.Background(), prompt("/acme:hello world")); err != nil {
		t.Fatal(err)
	}
	r := f.srv.Requests()[0]
	if r.LastUserText() != "Hello from the plugin, world." || !strings.Contains(r.System, "- acme:lint: Lint the code.") {
		t.Errorf("the plugin's command sent %q; system prompt:\n%s", r.LastUserText(), r.System)
	}
}
