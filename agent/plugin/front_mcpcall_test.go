package plugin_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// A plugin's tool calls a tool of a real MCP server of the session (one
// another plugin contributes) through host/mcp/callTool, under `tandem
// acp`: in code mode the policy asks, so the user is asked, the question
// naming the plugin; once a project deny rule names the MCP tool, the
// plugin's call is refused with CodeDenied and the server is not called.
func TestFrontPluginCallsMCPTool(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	srv := llmtest.NewServer(t)
	plugins := filepath.Join(home, "plugins")
	// The server answers initialize only once the user has been shown that
	// it is starting: slow to start whatever the machine's load.
	gate := filepath.Join(t.TempDir(), "gate")

	echo := filepath.Join(plugins, "echo")
	src, err := os.ReadFile("testdata/mcpserver.py")
	must(t, err)
	writeFiles(t, echo, map[string]string{"server.py": string(src)})
	writeJSON(t, filepath.Join(echo, "plugin.json"), map[string]any{
		"name": "echo", "version": "1.0.0", "permissions": map[string]any{"mcpServers": true},
		"contributes": map[string]any{"mcpServers": map[string]any{
			"where": map[string]any{"command": "python3", "args": []string{"${TANDEM_PLUGIN_ROOT}/server.py", "here", "gate:" + gate}},
		}},
	})
	enable(t, home, "echo", echo, nil)
	caller := pyPlugin(t, plugins, "caller", map[string]any{"permissions": map[string]any{"tools": true, "mcpInvoke": true}})
	enable(t, home, "caller", caller, map[string]any{"tool": "ask_mcp", "mcpCall": map[string]any{"server": "echo:where", "tool": "where"}})

	call := llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "plugin__caller__ask_mcp", Args: `{"text":"x"}`}}}
	srv.Enqueue(call, llmtest.Reply{Text: []string{"one"}})
	f := startFront(t, "acp", home, root, srv)
	f.mu.Lock()
	f.onStarted = func(title string) {
		if title == "Starting MCP server echo:where" {
			os.WriteFile(gate, nil, 0o600)
		}
	}
	f.mu.Unlock()
	sid := f.newSession(t, root, "code")
	f.prompt(t, sid, "first")

	writeFiles(t, root, map[string]string{".tandem/settings.json": `{"permissions": {"deny": ["mcp__echo_where__where"]}}`})
	srv.Enqueue(call, llmtest.Reply{Text: []string{"two"}})
	f.prompt(t, sid, "second")

	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	if !slices.Contains(reqs[0].Tools, "mcp__echo_where__where") {
		t.Errorf("the plugin's server was not waited for: %v", reqs[0].Tools)
	}
	f.mu.Lock()
	started := slices.Clone(f.started)
	f.mu.Unlock()
	// Slow to start, it is waited for as the session's own servers are:
	// shown to the user.
	if !slices.Contains(started, "Starting MCP server echo:where") {
		t.Errorf("tool calls shown: %q", started)
	}
	if got := reqs[1].LastUserText(); got != "mcp said: root=here" {
		t.Errorf("allowed call: %q", got)
	}
	if got := reqs[3].LastUserText(); !strings.Contains(got, "refused (-32001)") || !strings.Contains(got, "mcp__echo_where__where") {
		t.Errorf("denied call: %q", got)
	}
	f.mu.Lock()
	asked := slices.Clone(f.asked)
	f.mu.Unlock()
	// The plugin's tool asks (code mode) twice, its MCP call once: the
	// denied one is refused before anyone is asked.
	var mcpAsks []string
	for _, a := range asked {
		if strings.Contains(a, "MCP") {
			mcpAsks = append(mcpAsks, a)
		}
	}
	if len(mcpAsks) != 1 || !strings.HasPrefix(mcpAsks[0], "caller plugin: where (echo:where MCP)") {
		t.Errorf("permission requests: %q", asked)
	}
}
