package acp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

const signinURL = "https://auth.example.test/device?code=XY-77"

// signinServer is an MCP server over real HTTP whose "signin" tool asks
// the user to open a link (a url-mode elicitation) and, once the user
// accepted, reports the step complete, along with a completion for an id
// it never sent.
func signinServer(t *testing.T) string {
	t.Helper()
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "auth", Version: "1"}, nil)
	mcpsdk.AddTool(s, &mcpsdk.Tool{Name: "signin", Description: "Signs the user in"},
		func(ctx context.Context, req *mcpsdk.CallToolRequest, _ struct{}) (*mcpsdk.CallToolResult, any, error) {
			res, err := req.Session.Elicit(ctx, &mcpsdk.ElicitParams{Mode: "url", Message: "Sign in to the auth service",
				URL: signinURL, ElicitationID: "el-42"})
			if err != nil {
				return nil, nil, err
			}
			if res.Action == "accept" {
				for _, id := range []string{"never-sent", "el-42"} {
					if err := req.Session.NotifyElicitationComplete(ctx, &mcpsdk.ElicitationCompleteParams{ElicitationID: id}); err != nil {
						return nil, nil, err
					}
				}
			}
			return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "signin " + res.Action}}}, nil, nil
		})
	h := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s }, nil)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL
}

// completions records the elicitation/complete notifications an editor got.
type completions struct {
	mu  sync.Mutex // guards ids
	ids []string
}

func (e *editor) UnstableCompleteElicitation(_ context.Context, p sdk.UnstableCompleteElicitationNotification) error {
	e.mu.Lock()
	c := e.completed
	e.mu.Unlock()
	if c != nil {
		c.mu.Lock()
		c.ids = append(c.ids, string(p.ElicitationId))
		c.mu.Unlock()
		e.changes.Changed()
	}
	return nil
}

func (c *completions) list() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.ids...)
}

// An MCP server's url-mode elicitation reaches a client that declared url
// support as elicitation/create in url mode, and the server's completion
// follows as elicitation/complete with the same id; a completion for an id
// the server never sent is not passed on. A client without url support
// sees the link in the permission prompt and the completion as a message.
func TestMCPURLElicitationCompletes(t *testing.T) {
	url := signinServer(t)
	run := func(t *testing.T, caps sdk.ClientCapabilities, ed *editor) sdk.SessionId {
		srv := llmtest.NewServer(t)
		srv.Enqueue(
			llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "s1", Name: "mcp__auth__signin", Args: `{}`}}},
			llmtest.Reply{Text: []string{"signed in"}},
		)
		p := startTandem(t, srv, t.TempDir(), ed)
		if _, err := p.conn.Initialize(ctxT(t), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber, ClientCapabilities: caps}); err != nil {
			t.Fatal(err)
		}
		r, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: workspace(t, nil), McpServers: []sdk.McpServer{
			{Http: &sdk.McpServerHttpInline{Name: "auth", Type: "http", Url: url, Headers: []sdk.HttpHeader{}}}}})
		if err != nil {
			t.Fatal(err)
		}
		if reason, err := p.prompt(t, r.SessionId, "sign in"); err != nil || reason != sdk.StopReasonEndTurn {
			t.Fatalf("prompt: %q, %v", reason, err)
		}
		if got := srv.Requests()[1].LastUserText(); !strings.Contains(got, "signin accept") {
			t.Errorf("the server got %q, want the user's accept", got)
		}
		return r.SessionId
	}

	t.Run("editor shows the link", func(t *testing.T) {
		ed := newEditor(t)
		done := &completions{}
		var created []sdk.UnstableCreateElicitationRequest
		ed.completed = done
		ed.elicit = func(p sdk.UnstableCreateElicitationRequest) sdk.UnstableCreateElicitationResponse {
			ed.mu.Lock()
			created = append(created, p)
			ed.mu.Unlock()
			return sdk.UnstableCreateElicitationResponse{Accept: &sdk.UnstableCreateElicitationAccept{Action: "accept"}}
		}
		run(t, sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{Url: &sdk.ElicitationUrlCapabilities{}}}, ed)
		ed.await(t, "elicitation/complete", func() bool { return len(done.list()) > 0 })
		ed.mu.Lock()
		defer ed.mu.Unlock()
		if len(created) != 1 || created[0].Url == nil || created[0].Url.Url != signinURL || created[0].Url.ElicitationId != "el-42" {
			t.Fatalf("elicitation/create requests: %+v", created)
		}
		if ids := done.list(); len(ids) != 1 || ids[0] != "el-42" {
			t.Errorf("elicitation/complete ids = %q, want just el-42", ids)
		}
	})

	t.Run("permission prompt shows the link", func(t *testing.T) {
		ed := newEditor(t)
		ed.answer = func(p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
			for _, o := range p.Options {
				if o.OptionId == "accept" {
					return sdk.NewRequestPermissionOutcomeSelected("accept")
				}
			}
			return sdk.NewRequestPermissionOutcomeSelected("allow_once") // the tool call itself
		}
		sid := run(t, sdk.ClientCapabilities{}, ed)
		want := "MCP server auth reports that the step at " + signinURL + " is complete."
		ed.await(t, "the completion message", func() bool { return strings.Contains(ed.agentText(sid), want) })
		if n := strings.Count(ed.agentText(sid), "reports that the step"); n != 1 {
			t.Errorf("%d completion messages, want 1:\n%s", n, ed.agentText(sid))
		}
		ed.mu.Lock()
		defer ed.mu.Unlock()
		if n := strings.Count(jsonString(ed.permissions), "open: "+signinURL); n != 1 {
			t.Errorf("the link was in %d permission prompts, want 1: %s", n, jsonString(ed.permissions))
		}
	})
}
