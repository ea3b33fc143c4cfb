package plugin_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/custom"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// A declarative plugin whose command and skill live where only its
// manifest's contributes entries point (not in commands/ or skills/):
// under a real `tandem acp` (and `tandem lsp`) the command is offered as
// /notes:summarize (ACP's available_commands_update) and expands; the
// skill is offered as notes:style and the skill tool loads it. A file its
// commands/ folder also holds is offered once, under the entry's name.
func TestFrontContributedCommandsAndSkills(t *testing.T) {
	for _, kind := range fronts {
		t.Run(kind, func(t *testing.T) { testContributedCommandsAndSkills(t, kind) })
	}
}

func testContributedCommandsAndSkills(t *testing.T, kind string) {
	home, root, src := t.TempDir(), t.TempDir(), t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	dir := filepath.Join(src, "notes")
	writeFiles(t, dir, map[string]string{
		"prompts/summarize.md":     "---\ndescription: from the file\n---\nSUMMARIZE-BODY: summarize $ARGUMENTS.\n",
		"commands/audit.md":        "AUDIT-BODY\n",
		"guides/style/SKILL.md":    "---\nname: ignored\ndescription: Writes in the house style\n---\nSTYLE-SKILL-BODY\n",
		"guides/style/examples.md": "an example\n",
	})
	writeJSON(t, filepath.Join(dir, "plugin.json"), map[string]any{
		"name": "notes", "version": "1.0.0",
		"permissions": map[string]any{"commands": true, "skills": true},
		"contributes": map[string]any{
			"commands": []map[string]any{
				{"name": "summarize", "path": "prompts/summarize.md", "description": "Summarize a file"},
				{"name": "check", "path": "commands/audit.md"},
			},
			"skills": []map[string]any{{"name": "style", "path": "guides/style"}},
		},
	})
	cli(t, home, "install", dir)
	cli(t, home, "enable", "notes")

	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{Text: []string{"summary"}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "skill", Args: `{"name":"notes:style"}`}}},
		llmtest.Reply{Text: []string{"styled"}},
	)
	f := startFront(t, kind, home, root, srv)
	sid := f.newSession(t, root, "code")
	if kind == "acp" {
		offered := f.awaitOffered()
		for _, want := range []string{"notes:summarize", "notes:check"} {
			if !slices.Contains(offered, want) {
				t.Errorf("available_commands_update lacks %s: %v", want, offered)
			}
		}
		if slices.Contains(offered, "notes:audit") {
			t.Errorf("the file named by an entry is offered twice: %v", offered)
		}

	}
	f.prompt(t, sid, "/notes:summarize main.go")
	reqs := srv.Requests()
	if got := reqs[0].LastUserText(); !strings.Contains(got, "SUMMARIZE-BODY: summarize main.go.") {
		t.Errorf("command: %q", got)
	}
	if !strings.Contains(reqs[0].System, "notes:style") || !strings.Contains(reqs[0].System, "Writes in the house style") {
		t.Errorf("skill not offered in the system prompt:\n%s", reqs[0].System)
	}
	f.prompt(t, sid, "write the changelog")
	reqs = srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := reqs[2].LastUserText(); !strings.Contains(got, "STYLE-SKILL-BODY") || !strings.Contains(got, "examples.md") {
		t.Errorf("skill tool: %q", got)
	}
}

// The entries are confined to the plugin's folder: one whose file is a
// link out of it is not offered, and the session says why.
func TestContributedEntryLinkOutRefused(t *testing.T) {
	r := newRig(t)
	outside := filepath.Join(t.TempDir(), "secret.md")
	must(t, os.WriteFile(outside, []byte("SECRET-BODY\n"), 0o644))
	dir := filepath.Join(r.home, "plugins", "leaky")
	writeFiles(t, dir, map[string]string{"ok.md": "OK-BODY\n"})
	must(t, os.Symlink(outside, filepath.Join(dir, "leak.md")))
	writeJSON(t, filepath.Join(dir, "plugin.json"), map[string]any{
		"name": "leaky", "version": "1.0.0",
		"permissions": map[string]any{"commands": true},
		"contributes": map[string]any{"commands": []map[string]any{
			{"name": "leak", "path": "leak.md"}, {"name": "ok", "path": "ok.md"}}},
	})
	enable(t, r.home, "leaky", dir, nil)
	srcs := r.rt.CustomSources(r.root)
	if len(srcs) != 1 || len(srcs[0].Entries) != 2 {
		t.Fatalf("sources: %+v", srcs)
	}
	set := custom.Load(srcs, func(string) bool { return false })
	if _, ok := set.Command("leaky:leak"); ok {
		t.Errorf("the linked-out command is offered")
	}
	if len(set.Problems) != 1 || !strings.Contains(set.Problems[0].Error(), "links outside") {
		t.Errorf("problems: %v", set.Problems)
	}
	r.srv.Enqueue(llmtest.Reply{Text: []string{"a"}})
	s, _ := r.session(t, agent.ModeCode)
	prompt(t, s, "/leaky:ok")
	if got := r.srv.Requests()[0].LastUserText(); !strings.Contains(got, "OK-BODY") {
		t.Errorf("ok: %q", got)
	}
}
