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
