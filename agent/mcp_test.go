package agent

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/internal/testenv"
)

const everythingPkg = "@modelcontextprotocol/server-everything"

func everythingServer(t *testing.T, name string) mcp.Server {
	entry := filepath.Join(testenv.NodeModules(t, everythingPkg), everythingPkg, "dist", "index.js")
	return mcp.Server{Name: name, Type: mcp.TypeStdio, Command: testenv.Program(t, "node"), Args: []string{entry, "stdio"}}
}

func hasTool(s *Session, name string) (ok bool) {
	s.read(func() { _, ok = s.st.catalog.Get(name) })
	return ok
}

// awaitTool waits until tool is in s's catalog, checking at each update h
// (s's editor) is sent. The last of a starting MCP server's events is one
// the editor sees: the manager hands the session a server's tools, then
// news of its prompts, in order from one goroutine, and the session adds
// the tools before it sends the command list naming those prompts.
// server-everything offers prompts, so that list always comes.
func awaitTool(t *testing.T, h *testHost, s *Session, tool string) {
	t.Helper()
	h.await(t, func() bool { return hasTool(s, tool) })
}

// An editor's MCP server joins the session's tools; a call goes through
// the permission policy and its result reaches the model.
func TestMCPToolThroughTheModel(t *testing.T) {
	f := newFixture(t)
	h := &testHost{}
	s, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: t.TempDir(), Host: h, MCPServers: []mcp.Server{everythingServer(t, "ev")}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	awaitTool(t, h, s, "mcp__ev__echo")

	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "m1", Name: "mcp__ev__echo", Args: `{"message":"ping-42"}`}}},
		llmtest.Reply{Text: []string{"echoed"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("echo")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	if !slices.Contains(reqs[0].Tools, "mcp__ev__echo") {
		t.Errorf("request tools = %v", reqs[0].Tools)
	}
	r, ok := toolResult(reqs, "m1")
	if !ok || r.IsError || !strings.Contains(r.Text, "ping-42") {
		t.Errorf("echo result = %+v", r)
	}
	if h.askCount() != 1 {
		t.Errorf("asks = %d: an MCP call asks in code mode", h.askCount())
	}
}

// A repository's .tandem/mcp.json starts only after the user agrees.
func TestProjectMCPServersNeedConsent(t *testing.T) {
	for _, allow := range []bool{false, true} {
		f := newFixture(t)
		dir := projectMCPWorkspace(t, "proj")
		h := &testHost{}
		if !allow {
			h.answer = func(PermissionRequest) (Decision, error) { return Decision{Kind: RejectOnce}, nil }
		}
		s, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: dir, Host: h})
		if err != nil {
			t.Fatal(err)
		}
		f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
		if _, err := s.Prompt(context.Background(), prompt("hi")); err != nil {
			t.Fatal(err)
		}
		if h.askCount() != 1 || !strings.Contains(h.asks[0].ToolCall.Title, ".tandem/mcp.json") {
			t.Errorf("asks = %+v", h.asks)
		}
		if allow {
			awaitTool(t, h, s, "mcp__proj__echo")
		} else if hasTool(s, "mcp__proj__echo") || !strings.Contains(h.text(), "not started") {
			t.Errorf("rejected project servers: tools present=%v, text %q", hasTool(s, "mcp__proj__echo"), h.text())
		}
		s.Close()
	}
}
