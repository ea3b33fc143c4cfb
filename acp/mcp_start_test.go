package acp

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// slowHTTP serves an MCP server whose first answer (initialize) comes
// after delay, or when the client gives up.
func slowHTTP(t *testing.T, name string, delay time.Duration) string {
	t.Helper()
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: name, Version: "1"}, nil)
	mcpsdk.AddTool(s, &mcpsdk.Tool{Name: "greet", Description: "Say hello"},
		func(context.Context, *mcpsdk.CallToolRequest, struct{}) (*mcpsdk.CallToolResult, any, error) {
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "hello"}}}, nil, nil
		})
	h := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s }, nil)
	var first atomic.Bool
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if first.CompareAndSwap(false, true) {
			// Read the body first: only then does the server watch the
			// connection and cancel r.Context() when tandem hangs up, so
			// closing the server at the end does not wait out the delay.
			body, err := io.ReadAll(r.Body)
			if err != nil {
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// startTandemEnv is startTandem with extra environment variables.
func startTandemEnv(t *testing.T, srv *llmtest.Server, home string, ed *editor, env ...string) *tandemProcess {
	t.Helper()
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = append(append(testenv.ModelEnv(home, srv.BaseURL(llmtest.Anthropic)), "TANDEM_LOG=debug"), env...)
	return startCmd(t, cmd, srv, home, ed)
}

// startCall is how the editor saw one "Starting MCP server" tool call.
type startCall struct {
	status agent.ToolStatus
	text   string
}

// startCalls collects the "Starting MCP server X" tool calls by server.
func startCalls(ed *editor, sid sdk.SessionId) map[string]startCall {
	out := map[string]startCall{}
	names := map[string]string{} // tool call id -> server
	for _, r := range ed.sessionUpdates(sid) {
		tc := r.u.Tool
		if tc == nil {
			continue
		}
		if r.u.Type == agent.ToolCallStarted {
			if name, ok := strings.CutPrefix(tc.Title, "Starting MCP server "); ok {
				names[tc.ID] = name
				out[name] = startCall{status: tc.Status}
			}
			continue
		}
		name, ok := names[tc.ID]
		if !ok {
			continue
		}
		c := out[name]
		if tc.Status != "" {
			c.status = tc.Status
		}
		for _, content := range tc.Content {
			if content.Content != nil {
				c.text += content.Content.Text
			}
		}
		out[name] = c
	}
	return out
}

// The first model request waits for the session's MCP servers: it carries
// the tools of a stdio server from npm and of a slow HTTP server; a server
// that cannot start is reported, and one still starting after the bound
// (TANDEM_MCP_STARTUP_SECONDS) is reported and not waited for.
func TestMCPFirstRequestWaitsForServers(t *testing.T) {
	const pkg = "@modelcontextprotocol/server-everything"
	entry := filepath.Join(testenv.NodeModules(t, pkg), pkg, "dist", "index.js")
	node := testenv.Program(t, "node")
	slow := slowHTTP(t, "slow", 1500*time.Millisecond)
	stuck := slowHTTP(t, "stuck", time.Minute)

	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"hi"}}, llmtest.Reply{Text: []string{"again"}})
	ed := newEditor(t)
	p := startTandemEnv(t, srv, t.TempDir(), ed, "TANDEM_MCP_STARTUP_SECONDS=15")
	p.initialize(t, true, false)
	r, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: workspace(t, nil), McpServers: []sdk.McpServer{
		{Stdio: &sdk.McpServerStdio{Name: "ev", Command: node, Args: []string{entry, "stdio"}, Env: []sdk.EnvVariable{}}},
		{Http: &sdk.McpServerHttpInline{Name: "slow", Type: "http", Url: slow, Headers: []sdk.HttpHeader{}}},
		{Http: &sdk.McpServerHttpInline{Name: "stuck", Type: "http", Url: stuck, Headers: []sdk.HttpHeader{}}},
		{Stdio: &sdk.McpServerStdio{Name: "broken", Command: filepath.Join(t.TempDir(), "no-such-server"), Args: []string{}, Env: []sdk.EnvVariable{}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	sid := r.SessionId
	start := time.Now()
	if reason, err := p.prompt(t, sid, "hello"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %q, %v", reason, err)
	}
	took := time.Since(start)
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests", len(reqs))
	}
	tools := reqs[0].Tools
	for _, want := range []string{"mcp__ev__echo", "mcp__slow__greet"} {
		if !slices.Contains(tools, want) {
			t.Errorf("the first request lacks %s: %v", want, tools)
		}
	}
	if slices.Contains(tools, "mcp__stuck__greet") {
		t.Errorf("the stuck server's tools were in the first request")
	}
	var mcpTools []string
	for _, n := range tools {
		if strings.HasPrefix(n, "mcp__") {
			mcpTools = append(mcpTools, n)
		}
	}
	if !slices.IsSorted(mcpTools) || !strings.HasPrefix(tools[len(tools)-len(mcpTools)], "mcp__") {
		t.Errorf("MCP tools are not last and sorted: %v", tools)
	}
	if took < 14*time.Second || took > 45*time.Second {
		t.Errorf("the prompt took %s; the bound is 15s", took)
	}

	calls := startCalls(ed, sid)
	if c := calls["slow"]; c.status != agent.ToolCompleted || !strings.Contains(c.text, "ready with 1 tools") {
		t.Errorf("slow server shown as %+v", c)
	}
	if c := calls["stuck"]; c.status != agent.ToolFailed || !strings.Contains(c.text, "still starting after 15s") {
		t.Errorf("stuck server shown as %+v", c)
	}
	if text := ed.agentText(sid); !strings.Contains(text, `MCP server "broken" could not start`) {
		t.Errorf("the broken server was not reported: %q", text)
	}
	if c, ok := calls["broken"]; ok && c.status != agent.ToolFailed {
		t.Errorf("broken server shown as %+v", c)
	}

	// A server waited for once is not waited for again.
	start = time.Now()
	if reason, err := p.prompt(t, sid, "again"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("second prompt: %q, %v", reason, err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the second prompt took %s: it waited for the stuck server again", took)
	}
	shown := 0
	for _, r := range ed.sessionUpdates(sid) {
		if r.u.Type == agent.ToolCallStarted && r.u.Tool.Title == "Starting MCP server stuck" {
			shown++
		}
	}
	if shown != 1 {
		t.Errorf("the stuck server's start was shown %d times, want once", shown)
	}
}
