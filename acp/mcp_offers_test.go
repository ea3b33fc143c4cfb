package acp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// promptServer is an MCP server over real HTTP with one prompt and one
// resource, made with the MCP Go SDK.
func promptServer(t *testing.T) string {
	t.Helper()
	s := mcpsdk.NewServer(&mcpsdk.Implementation{Name: "gh", Version: "1"}, nil)
	s.AddPrompt(&mcpsdk.Prompt{Name: "review-pr", Description: "Review a pull request",
		Arguments: []*mcpsdk.PromptArgument{{Name: "number", Required: true}, {Name: "focus"}}},
		func(_ context.Context, r *mcpsdk.GetPromptRequest) (*mcpsdk.GetPromptResult, error) {
			a := r.Params.Arguments
			text := fmt.Sprintf("Review PR #%s focusing on %s.", a["number"], a["focus"])
			return &mcpsdk.GetPromptResult{Messages: []*mcpsdk.PromptMessage{{Role: "user", Content: &mcpsdk.TextContent{Text: text}}}}, nil
		})
	s.AddResource(&mcpsdk.Resource{URI: "docs://guide", Name: "guide", Description: "The team guide", MIMEType: "text/plain"},
		func(_ context.Context, r *mcpsdk.ReadResourceRequest) (*mcpsdk.ReadResourceResult, error) {
			return &mcpsdk.ReadResourceResult{Contents: []*mcpsdk.ResourceContents{{URI: r.Params.URI, MIMEType: "text/plain", Text: "GUIDE-TEXT"}}}, nil
		})
	ts := httptest.NewServer(mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s }, nil))
	t.Cleanup(ts.Close)
	return ts.URL
}

// An MCP server's prompt is the command /mcp:<server>:<prompt> with its
// arguments; its resources come in as resource_links in a prompt and
// through the resource tools.
func TestMCPPromptsAndResources(t *testing.T) {
	url := promptServer(t)
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{Text: []string{"Reviewed."}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "r1", Name: "read_mcp_resource", Args: `{"uri":"docs://guide"}`, Split: 2}}},
		llmtest.Reply{Text: []string{"Read it."}},
	)
	ed := newEditor(t)
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, false)
	r, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: workspace(t, nil), McpServers: []sdk.McpServer{
		{Http: &sdk.McpServerHttpInline{Name: "gh", Type: "http", Url: url, Headers: []sdk.HttpHeader{}}}}})
	if err != nil {
		t.Fatal(err)
	}
	sid := r.SessionId
	var hint string
	ed.await(t, "the review-pr command with its hint", func() bool {
		for _, u := range ed.sessionUpdates(sid) {
			for _, c := range u.u.Commands {
				if u.u.Type == agent.AvailableCommandsUpdate && c.Name == "mcp:gh:review-pr" && c.Input != nil {
					hint = c.Input.Hint
					return true
				}
			}
		}
		return false
	})
	if hint != "<number> [focus]" {
		t.Errorf("the prompt's hint is %q", hint)
	}

	if reason, err := p.prompt(t, sid, "/mcp:gh:review-pr"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt without its argument: %q, %v", reason, err)
	}
	if n := len(srv.Requests()); n != 0 || !strings.Contains(ed.agentText(sid), "needs number") {
		t.Errorf("a missing required argument: %d model requests, editor told %q", n, ed.agentText(sid))
	}
	if reason, err := p.prompt(t, sid, "/mcp:gh:review-pr 42 error handling"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("/mcp:gh:review-pr: %q, %v", reason, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].LastUserText() != "Review PR #42 focusing on error handling." {
		t.Fatalf("the prompt reached the model as %q", reqs[len(reqs)-1].LastUserText())
	}

	res, err := p.conn.Prompt(ctxT(t), sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{
		sdk.TextBlock("summarise"), sdk.ResourceLinkBlock("guide", "docs://guide")}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt with a resource link: %v, %v", res.StopReason, err)
	}
	reqs = srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	if got := reqs[1].LastUserText(); !strings.Contains(got, "<resource uri=\"docs://guide\" name=\"guide\">\nGUIDE-TEXT") {
		t.Errorf("the linked resource reached the model as %q", got)
	}
	if !slices.Contains(reqs[1].Tools, "list_mcp_resources") || !slices.Contains(reqs[1].Tools, "read_mcp_resource") {
		t.Errorf("resource tools not offered: %v", reqs[1].Tools)
	}
	if got := reqs[2].LastUserText(); !strings.Contains(got, "GUIDE-TEXT") {
		t.Errorf("read_mcp_resource returned %q", got)
	}
}
