package plugin_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/mcp"
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

// A plugin's MCP servers are handled like the session's own: a server's
// question (elicitation) reaches the user (${TANDEM_PLUGIN_DATA} is its
// data folder) and its answer the server, its
// prompt and resources are announced (the editor's command list, the
// resource tools) and its prompt runs as /mcp:<plugin>:<server>:<prompt>,
// and a server that cannot start is reported in the
// conversation, not only in the plugin's log.
func TestContributedMCPServerEvents(t *testing.T) {
	python(t)
	r := newRig(t)
	dir := filepath.Join(r.home, "plugins", "echo")
	os.MkdirAll(dir, 0o755)
	src, _ := os.ReadFile("testdata/mcpserver.py")
	os.WriteFile(filepath.Join(dir, "server.py"), src, 0o755)
	writeJSON(t, filepath.Join(dir, "plugin.json"), map[string]any{
		"name": "echo", "version": "1.0.0", "permissions": map[string]any{"mcpServers": true},
		"contributes": map[string]any{"mcpServers": map[string]any{
			"where":  map[string]any{"command": "python3", "args": []string{"${TANDEM_PLUGIN_ROOT}/server.py", "${TANDEM_PLUGIN_DATA}", "0", "extras"}},
			"broken": map[string]any{"command": filepath.Join(dir, "no-such-server")},
		}},
	})
	enable(t, r.home, "echo", dir, nil)
	const tool = "mcp__echo_where__where"
	r.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: tool, Args: `{}`}}},
		llmtest.Reply{Text: []string{"done"}},
		llmtest.Reply{Text: []string{"briefed"}},
	)
	s, h := r.session(t, agent.ModeFullAuto)
	prompt(t, s, "where?")
	prompt(t, s, "/mcp:echo:where:brief")
	reqs := r.srv.Requests()
	if len(reqs) != 3 || !strings.Contains(reqs[2].LastUserText(), "BRIEF-TEXT") {
		t.Errorf("the server's prompt as a command: %d requests, last %q", len(reqs), reqs[len(reqs)-1].LastUserText())
	}
	if got, want := reqs[1].LastUserText(), "root="+filepath.Join(r.home, "plugin-data", "echo")+" asked=accept"; got != want {
		t.Errorf("result %q", got)
	}
	if !slices.Contains(reqs[1].Tools, mcp.ListResourcesName) {
		t.Errorf("no resource tools: %v", reqs[1].Tools)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var asked []string
	for _, a := range h.asked {
		asked = append(asked, a.ToolCall.Title)
	}
	if !slices.ContainsFunc(asked, func(s string) bool { return strings.Contains(s, "Proceed with the lookup?") }) {
		t.Errorf("the server's question was not put to the user: %q", asked)
	}
	var said strings.Builder
	announced := false
	for _, u := range h.updates {
		if u.Chunk != nil {
			said.WriteString(u.Chunk.Text)
		}
		if u.Type == agent.AvailableCommandsUpdate && slices.ContainsFunc(u.Commands, func(c agent.Command) bool { return strings.HasSuffix(c.Name, ":brief") }) {
			announced = true
		}
	}
	if !announced {
		t.Error("the server's prompt was never announced to the editor")
	}
	if !strings.Contains(said.String(), "echo:broken") {
		t.Errorf("the failed server was not reported: %q", said.String())
	}
}
