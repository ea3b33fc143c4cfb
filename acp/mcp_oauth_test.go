package acp

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/mcp/mcptest"
)

const signInMarker = "Open this link in a browser: "

// A remote MCP server behind OAuth: the editor is shown the sign-in link
// while the first prompt waits for the server, the user opens it (a plain
// HTTP client here, as a browser would), and the first request already has
// the server's tools. The token is kept in $TANDEM_HOME/mcp-oauth.json
// (0600) and in no log, and a second tandem process uses it without asking.
func TestMCPOAuthSignInThroughTheEditor(t *testing.T) {
	auth := mcptest.NewAuthServer(t)
	home := t.TempDir()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"one"}}, llmtest.Reply{Text: []string{"two"}})
	servers := []sdk.McpServer{{Http: &sdk.McpServerHttpInline{Name: "guarded", Type: "http", Url: auth.URL + "/mcp", Headers: []sdk.HttpHeader{}}}}

	var stderr []string
	for run := 1; run <= 2; run++ {
		ed := newEditor(t)
		var follow sync.WaitGroup
		ed.onUpdate = func(_ string, r recorded) {
			if r.u.Type != agent.AgentMessageChunk || r.u.Chunk == nil {
				return
			}
			if _, rest, ok := strings.Cut(r.u.Chunk.Text, signInMarker); ok {
				link := strings.Fields(rest)[0]
				follow.Add(1)
				go func() { // the user opens the link
					defer follow.Done()
					if resp, err := http.Get(link); err == nil {
						resp.Body.Close()
					}
				}()
			}
		}
		p := startTandemEnv(t, srv, home, ed, "TANDEM_MCP_STARTUP_SECONDS=30")
		p.initialize(t, true, false)
		r, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: workspace(t, nil), McpServers: servers})
		if err != nil {
			t.Fatal(err)
		}
		if reason, err := p.prompt(t, r.SessionId, "hi"); err != nil || reason != sdk.StopReasonEndTurn {
			t.Fatalf("run %d: prompt: %q, %v", run, reason, err)
		}
		reqs := srv.Requests()
		if tools := reqs[len(reqs)-1].Tools; !slices.Contains(tools, "mcp__guarded__whoami") {
			t.Errorf("run %d: the first request lacks the signed-in server's tool: %v", run, tools)
		}
		if asked := strings.Contains(ed.agentText(r.SessionId), signInMarker); asked != (run == 1) {
			t.Errorf("run %d: sign-in link shown = %v", run, asked)
		}
		p.closeAndWait(t)
		follow.Wait()
		stderr = append(stderr, p.stderr.String())
	}
	if n := auth.SignIns(); n != 1 {
		t.Errorf("signed in %d times, want once", n)
	}
	file := filepath.Join(home, "mcp-oauth.json")
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v, %v", fi, err)
	}
	for i, s := range stderr {
		if strings.Contains(s, mcptest.AccessToken) || strings.Contains(s, mcptest.RefreshToken) {
			t.Errorf("run %d logged a token", i+1)
		}
	}
}
