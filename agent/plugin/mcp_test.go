package plugin_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// A declarative plugin's MCP server joins the session under the plugin's
// name, with ${TANDEM_PLUGIN_ROOT} substituted, and leaves when the plugin
// is disabled.
func TestContributedMCPServer(t *testing.T) {
	python(t)
	r := newRig(t)
	dir := filepath.Join(r.home, "plugins", "echo")
	os.MkdirAll(dir, 0o755)
	src, _ := os.ReadFile("testdata/mcpserver.py")
	os.WriteFile(filepath.Join(dir, "server.py"), src, 0o755)
	writeJSON(t, filepath.Join(dir, "plugin.json"), map[string]any{
		"name": "echo", "version": "1.0.0", "permissions": map[string]any{"mcpServers": true},
		"contributes": map[string]any{"mcpServers": map[string]any{
			"where": map[string]any{"command": "python3", "args": []string{"${TANDEM_PLUGIN_ROOT}/server.py", "${TANDEM_PLUGIN_ROOT}"}},
		}},
	})
	enable(t, r.home, "echo", dir, nil)
	const tool = "mcp__echo_where__where"
	r.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: tool, Args: `{}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	s, _ := r.session(t, agent.ModeFullAuto)
	prompt(t, s, "where?")
	reqs := r.srv.Requests()
	if !slices.Contains(reqs[0].Tools, tool) {
		t.Fatalf("tools: %v", reqs[0].Tools)
	}
	if got := reqs[1].LastUserText(); got != "root="+dir {
		t.Errorf("result %q", got)
	}
	st, _ := r.rt.Load(r.root)
	if err := st.Disable("echo"); err != nil {
		t.Fatal(err)
	}
	r.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	prompt(t, s, "again")
	if got := r.srv.Requests()[2].Tools; slices.Contains(got, tool) || strings.Contains(strings.Join(got, " "), "echo") {
		t.Errorf("still offered after disable: %v", got)
	}
}
