package lsp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// askingServer is an MCP server over real HTTP (MCP Go SDK) whose one tool
// asks the user a yes/no question and returns the answer it got.
func askingServer(t *testing.T) string {
	t.Helper()
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "ask", Version: "1"}, nil)
	mcpsdk.AddTool(s, &mcpsdk.Tool{Name: "confirm", Description: "Asks the user first"},
		func(ctx context.Context, req *mcpsdk.CallToolRequest, _ struct{}) (*mcpsdk.CallToolResult, any, error) {
			res, err := req.Session.Elicit(ctx, &mcpsdk.ElicitParams{Message: "Publish the release?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}, "required": []string{"ok"}}})
			if err != nil {
				return nil, nil, err
			}
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "answer=" + res.Action}}}, nil, nil
		})
	ts := httptest.NewServer(mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s }, nil))
	t.Cleanup(ts.Close)
	return ts.URL
}

// An MCP server's elicitation reaches an LSP client as
// window/showMessageRequest with Accept and Decline; the button picked
// reaches the server, and a client that cannot ask gets a decline.
func TestMCPElicitationOverLSP(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, button, want string
		caps               map[string]any
	}{
		{"accept", "Accept", "answer=accept", map[string]any{"window": map[string]any{"showMessage": map[string]any{}}}},
		{"decline", "Decline", "answer=decline", map[string]any{"window": map[string]any{"showMessage": map[string]any{}}}},
		{"cannot ask", "", "answer=decline", map[string]any{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url := askingServer(t)
			model := llmtest.NewServer(t)
			model.Enqueue(
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "mcp__ask__confirm", Args: `{}`}}},
				llmtest.Reply{Text: []string{"ok"}},
			)
			root, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			c := startClient(t, fakeModelEnv(t, model))
			var (
				askedMu sync.Mutex // guards asked: requests are answered on their own goroutines
				asked   []string
			)
			c.onRequest(func(method string, params json.RawMessage) (any, *rpcError) {
				if method != "window/showMessageRequest" {
					return nil, &rpcError{Code: -32601, Message: "unexpected " + method}
				}
				askedMu.Lock()
				asked = append(asked, string(params))
				askedMu.Unlock()
				return map[string]any{"title": tc.button}, nil
			})
			c.initialize(root, tc.caps)
			var res struct {
				SessionID string `json:"sessionId"`
			}
			c.mustCall("tandem/newSession", map[string]any{"mode": "full-auto", "mcpServers": []map[string]any{
				{"type": "http", "name": "ask", "url": url, "headers": []any{}}}}, &res)
			if _, err := c.call("tandem/prompt", map[string]any{"sessionId": res.SessionID,
				"prompt": []map[string]string{{"type": "text", "text": "release"}}}); err != nil {
				t.Fatal(err)
			}
			reqs := model.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d model requests", len(reqs))
			}
			if got := reqs[1].LastUserText(); !strings.Contains(got, tc.want) {
				t.Errorf("the server got %q, want %s", got, tc.want)
			}
			askedMu.Lock()
			defer askedMu.Unlock()
			if tc.button == "" {
				if len(asked) != 0 {
					t.Errorf("asked a client that cannot show a message request")
				}
				return
			}
			if len(asked) != 1 || !strings.Contains(asked[0], "Publish the release?") ||
				!strings.Contains(asked[0], `"title":"Accept"`) || !strings.Contains(asked[0], `"title":"Decline"`) {
				t.Errorf("showMessageRequest params %q", asked)
			}
		})
	}
}
