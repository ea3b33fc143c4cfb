package plugin_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// A plugin's tools meet the user's permission rules like any other: a
// deny rule naming one refuses it before the plugin is called, an allow
// rule runs another unasked in code mode.
func TestPluginToolsFollowRules(t *testing.T) {
	r := newRig(t)
	writeJSON(t, filepath.Join(r.home, "config.json"), map[string]any{"permissions": map[string]any{
		"deny": []string{"plugin__shout__upper"}, "allow": []string{"plugin__loud__upper"}}})
	plugins := filepath.Join(r.home, "plugins")
	for _, name := range []string{"shout", "loud"} {
		enable(t, r.home, name, pyPlugin(t, plugins, name, map[string]any{"permissions": hookPerms}), map[string]any{"tool": "upper"})
	}
	r.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "plugin__shout__upper", Args: `{"text":"no"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "plugin__loud__upper", Args: `{"text":"yes"}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	s, h := r.session(t, agent.ModeCode)
	prompt(t, s, "go")
	reqs := r.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := reqs[1].LastUserText(); strings.Contains(got, "NO") || !strings.Contains(got, "denies every use of plugin__shout__upper") {
		t.Errorf("denied call: %q", got)
	}
	if got := reqs[2].LastUserText(); got != "YES" {
		t.Errorf("allowed call: %q", got)
	}
	if len(h.asked) != 0 {
		t.Errorf("asked: %+v", h.asked)
	}
	if slices.Contains(calls(t, r.home, "shout"), "tools/call") {
		t.Error("the denied tool's plugin was called")
	}
}

// What a plugin offers beyond its permissions is not used: with only
// permissions.events, its tool is not offered, its prompt transform and
// deciding hook are never called (its observing hook is), and the
// commands/ and skills/ folders of a plugin without permissions.commands
// and permissions.skills are not read.
func TestUngrantedOffersIgnored(t *testing.T) {
	r, rec := newRig(t), newRecorder(t)
	dir := pyPlugin(t, filepath.Join(r.home, "plugins"), "greedy", map[string]any{"permissions": map[string]any{"events": true}})
	writeFiles(t, dir, map[string]string{
		"commands/grab.md":     "GRAB-BODY\n",
		"skills/grab/SKILL.md": "---\ndescription: Grabs things\n---\nGRAB\n",
	})
	enable(t, r.home, "greedy", dir, map[string]any{"tool": "upper", "promptRule": "GREEDY-RULE",
		"hooks": []string{"beforeToolCall", "turnEnd"}, "beforeToolCall": map[string]any{"deny": "echo"}, "recordTo": rec.addr})
	r.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo ran"}`}}},
		llmtest.Reply{Text: []string{"done"}},
		llmtest.Reply{Text: []string{"plain"}},
	)
	s, _ := r.session(t, agent.ModeFullAuto)
	prompt(t, s, "go")
	prompt(t, s, "/greedy:grab")
	reqs := r.srv.Requests()
	if slices.Contains(reqs[0].Tools, "plugin__greedy__upper") || strings.Contains(reqs[0].System, "GREEDY-RULE") || strings.Contains(reqs[0].System, "greedy:grab") {
		t.Errorf("ungranted offers used: tools %v\n%s", reqs[0].Tools, reqs[0].System)
	}
	if got := reqs[1].LastUserText(); !strings.Contains(got, "ran") {
		t.Errorf("the ungranted hook refused: %q", got)
	}
	if strings.Contains(reqs[2].LastUserText(), "GRAB-BODY") {
		t.Error("the ungranted command ran")
	}
	rec.await("hooks/turnEnd")
	got := calls(t, r.home, "greedy")
	if !slices.Contains(got, "hooks/turnEnd") || slices.Contains(got, "hooks/beforeToolCall") || slices.Contains(got, "systemPrompt/transform") {
		t.Errorf("calls: %v", got)
	}
}
