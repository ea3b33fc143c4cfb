package acp

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// A session with an additional root (additionalDirectories) reads and edits
// files there by absolute path, still refuses paths outside every root,
// gives the model the second root's instructions after the primary's, once,
// and keeps the root through session/list and session/load.
func TestAdditionalDirectories(t *testing.T) {
	primary := workspace(t, map[string]string{"AGENTS.md": "PRIMARY-RULES\n"})
	second := workspace(t, map[string]string{"AGENTS.md": "SECOND-RULES\n", "notes.txt": "hello there\n"})
	outside := workspace(t, map[string]string{"secret.txt": "top secret\n"})
	notes := filepath.Join(second, "notes.txt")

	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "r1", Name: "read_file", Args: `{"path":"` + notes + `"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "e1", Name: "edit_file",
			Args: `{"path":"` + notes + `","old_string":"hello","new_string":"goodbye"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "o1", Name: "read_file", Args: `{"path":"` + filepath.Join(outside, "secret.txt") + `"}`}}},
		llmtest.Reply{Text: []string{"done"}},
		llmtest.Reply{Text: []string{"again"}},
	)
	home := t.TempDir()
	ed := newEditor(t)
	p := startTandem(t, srv, home, ed)
	p.initialize(t, true, false)

	for _, bad := range []string{"relative/dir", filepath.Join(outside, "missing"), filepath.Join(outside, "secret.txt")} {
		_, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: primary, AdditionalDirectories: []string{bad}, McpServers: []sdk.McpServer{}})
		var re *sdk.RequestError
		if !errors.As(err, &re) || re.Code != -32602 {
			t.Errorf("session/new with additional directory %q: %v, want -32602", bad, err)
		}
	}

	r, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: primary, AdditionalDirectories: []string{second}, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	sid := r.SessionId
	if reason, err := p.prompt(t, sid, "tidy the notes"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %q, %v", reason, err)
	}

	if res := resultOf(t, srv, "r1"); res.IsError || !strings.Contains(res.Text, "hello there") {
		t.Errorf("reading a file of the second root: %+v", res)
	}
	if res := resultOf(t, srv, "e1"); res.IsError {
		t.Errorf("editing a file of the second root failed: %s", res.Text)
	}
	ed.mu.Lock()
	writes := slices.Clone(ed.writes)
	ed.mu.Unlock()
	if len(writes) != 1 || writes[0].Path != notes || writes[0].Content != "goodbye there\n" {
		t.Errorf("fs/write_text_file calls: %s", jsonString(writes))
	}
	if res := resultOf(t, srv, "o1"); !res.IsError || !strings.Contains(res.Text, "outside") {
		t.Errorf("a path outside both roots was not refused: %+v", res)
	}

	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests, want 4", len(reqs))
	}
	if !strings.Contains(reqs[0].System, second) {
		t.Errorf("the system prompt does not name the second root:\n%s", reqs[0].System)
	}
	for i, req := range reqs {
		if req.System != reqs[0].System {
			t.Errorf("request %d changed the system prompt", i)
		}
		all := requestText(req)
		if n := strings.Count(all, "SECOND-RULES"); n != 1 {
			t.Errorf("request %d carries the second root's instructions %d times, want once", i, n)
		}
		if a, b := strings.Index(all, "PRIMARY-RULES"), strings.Index(all, "SECOND-RULES"); a < 0 || b < a {
			t.Errorf("request %d: the primary root's instructions (at %d) do not come before the second root's (at %d)", i, a, b)
		}
	}
	first := reqs[0].Messages[0]
	if text := partsText(first); !strings.Contains(text, "PRIMARY-RULES") || !strings.Contains(text, "SECOND-RULES") {
		t.Errorf("the baseline is not one message carrying both roots:\n%s", text)
	}

	list, err := p.conn.ListSessions(ctxT(t), sdk.ListSessionsRequest{})
	if err != nil {
		t.Fatalf("session/list: %v", err)
	}
	if len(list.Sessions) != 1 || !slices.Equal(list.Sessions[0].AdditionalDirectories, []string{second}) {
		t.Errorf("session/list: %s", jsonString(list.Sessions))
	}

	// A new process loads the session without naming the roots: the stored
	// ones apply, so the model is told of the second root again.
	p2 := startTandem(t, srv, home, newEditor(t))
	p2.initialize(t, true, false)
	if _, err := p2.conn.LoadSession(ctxT(t), sdk.LoadSessionRequest{SessionId: sid, Cwd: primary, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	if reason, err := p2.prompt(t, sid, "and again"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt after load: %q, %v", reason, err)
	}
	last := srv.Requests()[4]
	if last.System != reqs[0].System {
		t.Errorf("the loaded session's system prompt differs:\n%s", last.System)
	}
	if n := strings.Count(requestText(last), "SECOND-RULES"); n != 1 {
		t.Errorf("after load the second root's instructions appear %d times, want once", n)
	}
	for _, bad := range []string{"relative/dir", filepath.Join(outside, "missing")} {
		_, err := p2.conn.ResumeSession(ctxT(t), sdk.ResumeSessionRequest{SessionId: sid, Cwd: primary, AdditionalDirectories: []string{bad}, McpServers: []sdk.McpServer{}})
		var re *sdk.RequestError
		if !errors.As(err, &re) || re.Code != -32602 {
			t.Errorf("session/resume with additional directory %q: %v, want -32602", bad, err)
		}
	}
}

// requestText is every text part of a request's messages, in order.
func requestText(r *llmtest.Request) string {
	var b strings.Builder
	for _, m := range r.Messages {
		b.WriteString(partsText(m))
	}
	return b.String()
}

func partsText(m llm.Message) string {
	var b strings.Builder
	for _, p := range m.Content {
		b.WriteString(p.Text)
		b.WriteString("\n")
	}
	return b.String()
}
