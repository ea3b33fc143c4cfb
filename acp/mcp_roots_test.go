package acp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// rootsServer is an MCP server over real HTTP whose "roots" tool asks the
// client for its roots (roots/list) and answers with their URIs, one a
// line, in the order the client listed them.
func rootsServer(t *testing.T) string {
	t.Helper()
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "rootsrv", Version: "1"}, nil)
	mcpsdk.AddTool(s, &mcpsdk.Tool{Name: "roots", Description: "Lists the client's roots"},
		func(ctx context.Context, req *mcpsdk.CallToolRequest, _ struct{}) (*mcpsdk.CallToolResult, any, error) {
			res, err := req.Session.ListRoots(ctx, nil)
			if err != nil {
				return nil, nil, err
			}
			var b strings.Builder
			for _, r := range res.Roots {
				b.WriteString("root " + r.URI + " name=" + r.Name + "\n")
			}
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: b.String()}}}, nil, nil
		})
	ts := httptest.NewServer(mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s }, nil))
	t.Cleanup(ts.Close)
	return ts.URL
}

// A session's MCP servers are told every root of a two-root session
// (roots/list), the cwd first, as file:// URIs, and nothing else.
func TestMCPRootsListEveryRoot(t *testing.T) {
	url := rootsServer(t)
	primary := workspace(t, nil)
	second := workspace(t, nil)
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "r1", Name: "mcp__rootsrv__roots", Args: `{}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	p := startTandem(t, srv, t.TempDir(), newEditor(t))
	p.initialize(t, true, false)
	r, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: primary, AdditionalDirectories: []string{second},
		McpServers: []sdk.McpServer{{Http: &sdk.McpServerHttpInline{Name: "rootsrv", Type: "http", Url: url, Headers: []sdk.HttpHeader{}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if reason, err := p.prompt(t, r.SessionId, "which roots?"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %q, %v", reason, err)
	}
	res := resultOf(t, srv, "r1")
	want := "root file://" + primary + " name=" + filepath.Base(primary) + "\nroot file://" + second + " name=" + filepath.Base(second) + "\n"
	if res.IsError || res.Text != want {
		t.Errorf("the server listed roots\n%q\nwant\n%q", res.Text, want)
	}
}
