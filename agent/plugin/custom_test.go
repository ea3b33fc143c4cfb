package plugin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// A Claude Code plugin folder, unchanged: once enabled, its command runs
// as /<plugin>:<command> and its skill is offered as <plugin>:<skill>;
// disabled, both are gone.
func TestClaudeCodePluginCommandsAndSkills(t *testing.T) {
	r := newRig(t)
	cc := filepath.Join(r.home, "plugins", "cc-tools")
	os.MkdirAll(filepath.Join(cc, ".claude-plugin"), 0o755)
	os.MkdirAll(filepath.Join(cc, "commands"), 0o755)
	os.MkdirAll(filepath.Join(cc, "skills", "review"), 0o755)
	os.WriteFile(filepath.Join(cc, ".claude-plugin", "plugin.json"), []byte(`{"name":"cc-tools","version":"1.0.0","author":{"name":"someone"}}`), 0o644)
	os.WriteFile(filepath.Join(cc, "commands", "greet.md"), []byte("---\ndescription: Greets\n---\nSay hello to $ARGUMENTS.\n"), 0o644)
	os.WriteFile(filepath.Join(cc, "skills", "review", "SKILL.md"), []byte("---\nname: review\ndescription: Reviews a diff carefully\n---\nRead the diff.\n"), 0o644)
	enable(t, r.home, "cc-tools", cc, nil)

	r.srv.Enqueue(llmtest.Reply{Text: []string{"hello"}})
	s, _ := r.session(t, agent.ModeCode)
	prompt(t, s, "/cc-tools:greet the team")
	req := r.srv.Requests()[0]
	if got := req.LastUserText(); !strings.Contains(got, "Say hello to the team.") {
		t.Errorf("command: %q", got)
	}
	if !strings.Contains(req.System, "cc-tools:review") {
		t.Errorf("skill not offered in the system prompt")
	}
	cat, _ := r.rt.Load(r.root)
	cat.Disable("cc-tools")
	r.srv.Enqueue(llmtest.Reply{Text: []string{"?"}})
	prompt(t, s, "/cc-tools:greet again")
	if got := r.srv.Requests()[1].LastUserText(); strings.Contains(got, "Say hello") {
		t.Errorf("the disabled plugin's command still ran: %q", got)
	}
}
