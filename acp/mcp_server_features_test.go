package acp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

const ttInstructions = "Use the tt tools only in tests. INSTR-7731"

// ttServer is an MCP server over real HTTP, made with the MCP Go SDK, that
// has instructions, grows a tool when "unlock" is called (so it sends
// notifications/tools/list_changed) and asks the user a question from
// "confirm" (elicitation/create). listed receives a value for each
// tools/list answer sent.
func ttServer(t *testing.T) (url string, listed <-chan struct{}) {
	t.Helper()
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "tt", Version: "1"}, &mcpsdk.ServerOptions{Instructions: ttInstructions})
	noArgs := func(text string) *mcpsdk.CallToolResult {
		return &mcpsdk.CallToolResult{Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: text}}}
	}
	mcpsdk.AddTool(s, &mcpsdk.Tool{Name: "unlock", Description: "Adds the extra tool"},
		func(context.Context, *mcpsdk.CallToolRequest, struct{}) (*mcpsdk.CallToolResult, any, error) {
			mcpsdk.AddTool(s, &mcpsdk.Tool{Name: "extra", Description: "Appears after unlock"},
				func(context.Context, *mcpsdk.CallToolRequest, struct{}) (*mcpsdk.CallToolResult, any, error) {
					return noArgs("extra ran"), nil, nil
				})
			return noArgs("unlocked"), nil, nil
		})
	mcpsdk.AddTool(s, &mcpsdk.Tool{Name: "confirm", Description: "Asks the user first"},
		func(ctx context.Context, req *mcpsdk.CallToolRequest, _ struct{}) (*mcpsdk.CallToolResult, any, error) {
			res, err := req.Session.Elicit(ctx, &mcpsdk.ElicitParams{
				Message: "Delete the scratch branch?",
				RequestedSchema: map[string]any{"type": "object",
					"properties": map[string]any{"confirm": map[string]any{"type": "boolean"}}, "required": []string{"confirm"}},
			})
			if err != nil {
				return nil, nil, err
			}
			return noArgs(fmt.Sprintf("action=%s confirm=%v", res.Action, res.Content["confirm"])), nil, nil
		})
	h := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s }, nil)
	lists := make(chan struct{}, 64)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
		if bytes.Contains(body, []byte(`"method":"tools/list"`)) {
			lists <- struct{}{} // once the answer is written
		}
	}))
	t.Cleanup(ts.Close)
	return ts.URL, lists
}

// An MCP server's instructions reach the model once, with the first
// request; its tools/list_changed puts the new tool in the next request;
// its elicitation is shown as a permission prompt, and the user's accept
// and decline reach the server.
func TestMCPListChangedInstructionsElicitation(t *testing.T) {
	url, listed := ttServer(t)
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "u1", Name: "mcp__tt__unlock", Args: `{}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "mcp__tt__confirm", Args: `{}`}}},
		llmtest.Reply{Text: []string{"done"}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c2", Name: "mcp__tt__confirm", Args: `{}`}}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	ed := newEditor(t)
	var declineNext atomic.Bool
	ed.answer = func(p sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		for _, o := range p.Options {
			if o.OptionId == "accept" {
				if declineNext.Load() {
					return sdk.NewRequestPermissionOutcomeSelected("decline")
				}
				return sdk.NewRequestPermissionOutcomeSelected("accept")
			}
		}
		return sdk.NewRequestPermissionOutcomeSelected("allow_once")
	}
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, false)
	r, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: workspace(t, nil), McpServers: []sdk.McpServer{
		{Http: &sdk.McpServerHttpInline{Name: "tt", Type: "http", Url: url, Headers: []sdk.HttpHeader{}}}}})
	if err != nil {
		t.Fatal(err)
	}
	sid := r.SessionId
	if reason, err := p.prompt(t, sid, "go"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("first prompt: %q, %v", reason, err)
	}
	for i := range 2 { // listed again after the change
		select {
		case <-listed:
		case <-time.After(10 * time.Second):
			t.Fatalf("tools/list answered %d times, want 2", i)
		}
	}
	declineNext.Store(true)
	if reason, err := p.prompt(t, sid, "again"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("second prompt: %q, %v", reason, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d model requests, want 5", len(reqs))
	}

	block := "<mcp-server-instructions server=\"tt\">\n" + ttInstructions
	for _, i := range []int{0, 3, 4} {
		if n := strings.Count(string(reqs[i].Body), "INSTR-7731"); n != 1 || !strings.Contains(reqs[i].System+messagesText(reqs[i]), block) {
			t.Errorf("request %d carries the instructions %d times (want once, in a message)", i, n)
		}
	}
	if strings.Contains(reqs[0].System, "INSTR-7731") {
		t.Errorf("the instructions are in the system prompt")
	}
	if slices.Contains(reqs[0].Tools, "mcp__tt__extra") || !slices.Contains(reqs[3].Tools, "mcp__tt__extra") {
		t.Errorf("tools before the change %v, after %v", reqs[0].Tools, reqs[3].Tools)
	}

	if got := reqs[2].LastUserText(); !strings.Contains(got, "action=accept confirm=true") {
		t.Errorf("accepted elicitation reached the server as %q", got)
	}
	if got := reqs[4].LastUserText(); !strings.Contains(got, "action=decline") {
		t.Errorf("declined elicitation reached the server as %q", got)
	}
	var asked int
	ed.mu.Lock()
	for _, q := range ed.permissions {
		if q.ToolCall.Title != nil && strings.Contains(*q.ToolCall.Title, "MCP server tt asks: Delete the scratch branch?") {
			asked++
		}
	}
	ed.mu.Unlock()
	if asked != 2 {
		t.Errorf("the elicitation was shown %d times, want 2", asked)
	}
}

// messagesText joins every text part of a request's messages.
func messagesText(r *llmtest.Request) string {
	var b strings.Builder
	for _, m := range r.Messages {
		for _, p := range m.Content {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

func (e *editor) UnstableCreateElicitation(ctx context.Context, p sdk.UnstableCreateElicitationRequest) (sdk.UnstableCreateElicitationResponse, error) {
	e.mu.Lock()
	e.seq++
	answer := e.elicit
	e.mu.Unlock()
	if answer == nil {
		return sdk.UnstableCreateElicitationResponse{}, sdk.NewMethodNotFound(sdk.ClientMethodElicitationCreate)
	}
	return answer(p), nil
}

// A client that declares form elicitation gets the server's question as
// ACP's elicitation/create with the server's schema, and the values the
// user typed reach the server.
func TestMCPElicitationAsACPForm(t *testing.T) {
	url, _ := ttServer(t)
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "mcp__tt__confirm", Args: `{}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	ed := newEditor(t)
	var (
		formsMu sync.Mutex // guards forms
		forms   []sdk.UnstableCreateElicitationRequest
	)
	ed.elicit = func(p sdk.UnstableCreateElicitationRequest) sdk.UnstableCreateElicitationResponse {
		formsMu.Lock()
		forms = append(forms, p)
		formsMu.Unlock()
		return sdk.UnstableCreateElicitationResponse{Accept: &sdk.UnstableCreateElicitationAccept{Action: "accept", Content: map[string]any{"confirm": false}}}
	}
	p := startTandem(t, srv, t.TempDir(), ed)
	if _, err := p.conn.Initialize(ctxT(t), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{Form: &sdk.ElicitationFormCapabilities{}}}}); err != nil {
		t.Fatal(err)
	}
	r, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: workspace(t, nil), McpServers: []sdk.McpServer{
		{Http: &sdk.McpServerHttpInline{Name: "tt", Type: "http", Url: url, Headers: []sdk.HttpHeader{}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if reason, err := p.prompt(t, r.SessionId, "go"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %q, %v", reason, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests", len(reqs))
	}
	if got := reqs[1].LastUserText(); !strings.Contains(got, "action=accept confirm=false") {
		t.Errorf("the form's values reached the server as %q", got)
	}
	formsMu.Lock()
	defer formsMu.Unlock()
	if len(forms) != 1 || forms[0].Form == nil || !strings.Contains(forms[0].Form.Message, "Delete the scratch branch?") {
		t.Fatalf("elicitation/create requests: %+v", forms)
	}
	if _, ok := forms[0].Form.RequestedSchema.Properties["confirm"]; !ok {
		t.Errorf("the form lacks the server's field: %+v", forms[0].Form.RequestedSchema)
	}
	ed.mu.Lock()
	defer ed.mu.Unlock()
	for _, q := range ed.permissions {
		if q.ToolCall.Title != nil && strings.Contains(*q.ToolCall.Title, "asks:") {
			t.Errorf("the question also went to the permission prompt")
		}
	}
}
