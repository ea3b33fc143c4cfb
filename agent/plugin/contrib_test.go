package plugin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// An agents/ folder counts only with permissions.agent; a session in a
// plugin's mode goes back to code mode, told so, when the plugin is
// disabled, between turns (the poller, not a prompt, applies it).
func TestContributionsGatedAndFallback(t *testing.T) {
	r := newRig(t)
	plugins := filepath.Join(r.home, "plugins")
	dir := reviewsPlugin(t, plugins)
	enable(t, r.home, "reviews", dir, nil)
	quiet := filepath.Join(plugins, "quiet")
	writeFiles(t, quiet, map[string]string{"agents/hidden.md": "---\ndescription: Hidden\n---\nHIDDEN\n"})
	writeJSON(t, filepath.Join(quiet, "plugin.json"), map[string]any{"name": "quiet", "version": "1.0.0"})
	enable(t, r.home, "quiet", quiet, nil)

	s, h := r.session(t, "reviews:review")
	r.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	prompt(t, s, "hi")
	doc := toolDoc(t, r.srv.Requests()[0], "task")
	if !strings.Contains(doc, "reviews:checker") || strings.Contains(doc, "hidden") {
		t.Errorf("task tool: %s", doc)
	}

	st, err := r.rt.Load(r.root)
	must(t, err)
	must(t, st.Disable("reviews"))
	// The runtime notices in the background; the session announces its
	// way back to code mode.
	h.awaitUpdate(func(u agent.Update) bool {
		return u.Type == agent.CurrentModeUpdate && u.ModeID == string(agent.ModeCode)
	})
	if s.Mode() != agent.ModeCode {
		t.Fatalf("mode after disable: %s", s.Mode())
	}
	for _, m := range s.Modes() {
		if strings.HasPrefix(string(m.ID), "reviews:") {
			t.Errorf("still offered: %s", m.ID)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var said strings.Builder
	for _, u := range h.updates {
		if u.Chunk != nil {
			said.WriteString(u.Chunk.Text)
		}
	}
	if !strings.Contains(said.String(), "The mode reviews:review is no longer available") {
		t.Errorf("not told: %q", said.String())
	}
}

// A plugin's MCP server still starting when the session's bound
// (mcpStartupSeconds) passes is reported and left to join later, as the
// session's own servers are: the first request does not wait for it.
func TestPluginMCPStartupBound(t *testing.T) {
	python(t)
	r := newRigWith(t, func(c *agent.Config) { c.MCPStartupWait = 300 * time.Millisecond })
	dir := filepath.Join(r.home, "plugins", "slow")
	src, err := os.ReadFile("testdata/mcpserver.py")
	must(t, err)
	writeFiles(t, dir, map[string]string{"server.py": string(src)})
	writeJSON(t, filepath.Join(dir, "plugin.json"), map[string]any{
		"name": "slow", "version": "1.0.0", "permissions": map[string]any{"mcpServers": true},
		"contributes": map[string]any{"mcpServers": map[string]any{
			"late": map[string]any{"command": "python3", "args": []string{"${TANDEM_PLUGIN_ROOT}/server.py", "x", "3"}},
		}},
	})
	enable(t, r.home, "slow", dir, nil)
	r.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	s, h := r.session(t, agent.ModeCode)
	start := time.Now()
	prompt(t, s, "hi")
	if took := time.Since(start); took > 2500*time.Millisecond {
		t.Errorf("the turn waited %s for the plugin's server", took)
	}
	if got := r.srv.Requests()[0].Tools; strings.Contains(strings.Join(got, " "), "slow_late") {
		t.Errorf("tools: %v", got)
	}
	if text := h.toolText(); !strings.Contains(text, "MCP server slow:late is still starting after 300ms") {
		t.Errorf("not reported: %q", text)
	}
}
