package acp

import (
	"errors"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestForkAndDelete: a fork carries the history so far and then goes its
// own way; the original never sees the fork's turns; deleting the fork
// removes it from session/list and from disk, and the original stays.
func TestForkAndDelete(t *testing.T) {
	forkSchema, delSchema := acpSchema(t, "ForkSessionResponse"), acpStableSchema(t, "DeleteSessionResponse")
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{Text: []string{"original answer"}},
		llmtest.Reply{Text: []string{"fork answer"}},
		llmtest.Reply{Text: []string{"original again"}},
	)
	ed := newEditor(t)
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, true)
	dir := workspace(t, nil)
	orig := p.newSession(t, dir)
	if _, err := p.prompt(t, orig, "question one"); err != nil {
		t.Fatal(err)
	}
	fork, err := p.conn.UnstableForkSession(ctxT(t), sdk.UnstableForkSessionRequest{SessionId: orig, Cwd: dir})
	if err != nil {
		t.Fatalf("session/fork: %v", err)
	}
	validate(t, forkSchema, "fork response", fork)
	if fork.SessionId == orig || fork.SessionId == "" {
		t.Fatalf("fork id %q", fork.SessionId)
	}
	if _, err := p.prompt(t, fork.SessionId, "fork question"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.prompt(t, orig, "question two"); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	forkReq, origReq := jsonString(reqs[1].Messages), jsonString(reqs[2].Messages)
	if !strings.Contains(forkReq, "question one") || !strings.Contains(forkReq, "original answer") {
		t.Errorf("the fork lacks the history it was forked with: %s", forkReq)
	}
	if strings.Contains(origReq, "fork") {
		t.Errorf("the original saw the fork's turn: %s", origReq)
	}

	del, err := p.conn.UnstableDeleteSession(ctxT(t), sdk.UnstableDeleteSessionRequest{SessionId: fork.SessionId})
	if err != nil {
		t.Fatalf("session/delete: %v", err)
	}
	validate(t, delSchema, "delete response", del)
	list, err := p.conn.ListSessions(ctxT(t), sdk.ListSessionsRequest{Cwd: &dir})
	if err != nil || len(list.Sessions) != 1 || list.Sessions[0].SessionId != orig {
		t.Errorf("session/list after delete: %s, %v", jsonString(list), err)
	}
	_, err = p.prompt(t, fork.SessionId, "still there?")
	var re *sdk.RequestError
	if !errors.As(err, &re) || re.Code != codeResourceNotFound {
		t.Errorf("prompt to a deleted session: %v", err)
	}
	if _, err := p.conn.UnstableDeleteSession(ctxT(t), sdk.UnstableDeleteSessionRequest{SessionId: fork.SessionId}); !errors.As(err, &re) || re.Code != codeResourceNotFound {
		t.Errorf("deleting twice: %v", err)
	}
}

// TestForkAdditionalDirectories: a fork that names no additionalDirectories
// keeps the parent's roots (the model is told of them, session/list shows
// them); one that names some gets exactly those, as the schema says; a bad
// one is refused like session/new's.
func TestForkAdditionalDirectories(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"parent"}}, llmtest.Reply{Text: []string{"kept"}}, llmtest.Reply{Text: []string{"replaced"}})
	ed := newEditor(t)
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, true)
	primary, second, third := workspace(t, nil), workspace(t, nil), workspace(t, nil)
	r, err := p.conn.NewSession(ctxT(t), sdk.NewSessionRequest{Cwd: primary, AdditionalDirectories: []string{second}, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.prompt(t, r.SessionId, "parent turn"); err != nil {
		t.Fatal(err)
	}
	fork := func(dirs []string) sdk.SessionId {
		t.Helper()
		f, err := p.conn.UnstableForkSession(ctxT(t), sdk.UnstableForkSessionRequest{SessionId: r.SessionId, Cwd: primary, AdditionalDirectories: dirs})
		if err != nil {
			t.Fatalf("session/fork with %v: %v", dirs, err)
		}
		if _, err := p.prompt(t, f.SessionId, "fork turn"); err != nil {
			t.Fatal(err)
		}
		return f.SessionId
	}
	kept, replaced := fork(nil), fork([]string{third})
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	if !strings.Contains(reqs[1].System, second) {
		t.Errorf("a fork naming no roots lost the parent's %s:\n%s", second, reqs[1].System)
	}
	if !strings.Contains(reqs[2].System, third) || strings.Contains(reqs[2].System, second) {
		t.Errorf("a fork naming %s has other roots:\n%s", third, reqs[2].System)
	}
	list, err := p.conn.ListSessions(ctxT(t), sdk.ListSessionsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[sdk.SessionId]string{}
	for _, s := range list.Sessions {
		got[s.SessionId] = strings.Join(s.AdditionalDirectories, ",")
	}
	if got[kept] != second || got[replaced] != third {
		t.Errorf("session/list: the forks' roots are %q and %q, want %q and %q", got[kept], got[replaced], second, third)
	}
	_, err = p.conn.UnstableForkSession(ctxT(t), sdk.UnstableForkSessionRequest{SessionId: r.SessionId, Cwd: primary, AdditionalDirectories: []string{"relative/dir"}})
	var re *sdk.RequestError
	if !errors.As(err, &re) || re.Code != -32602 {
		t.Errorf("session/fork with a relative additional directory: %v, want -32602", err)
	}
}

// TestLoadKeepsRootsUnlessNamed: session/load and session/resume with
// additionalDirectories [] keep the stored roots, as an omitted list and
// session/fork do; a non-empty list replaces them.
func TestLoadKeepsRootsUnlessNamed(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"ok"}} })
	home := t.TempDir()
	primary, second, third := workspace(t, nil), workspace(t, nil), workspace(t, nil)
	c := startRaw(t, home, srv.BaseURL(llmtest.Anthropic), map[string]any{})
	var r struct {
		SessionID string `json:"sessionId"`
	}
	answered(t, c.peer.Call("session/new", map[string]any{"cwd": primary, "additionalDirectories": []string{second}, "mcpServers": []any{}}, &r))
	for i, step := range []struct {
		method string
		dirs   []string
		want   string
	}{
		{"session/load", []string{}, second},
		{"session/resume", []string{}, second},
		{"session/resume", []string{third}, third},
		{"session/load", []string{}, third},
	} {
		answered(t, c.peer.Call(step.method, map[string]any{"sessionId": r.SessionID, "cwd": primary, "additionalDirectories": step.dirs, "mcpServers": []any{}}, nil))
		if stop := c.prompt(t, r.SessionID, "turn"); stop != "end_turn" {
			t.Fatalf("step %d: prompt ended %q", i, stop)
		}
		reqs := srv.Requests()
		sys := reqs[len(reqs)-1].System
		other := second
		if step.want == second {
			other = third
		}
		if !strings.Contains(sys, step.want) || strings.Contains(sys, other) {
			t.Errorf("step %d: %s with %v: the model is not told of %s alone:\n%s", i, step.method, step.dirs, step.want, sys)
		}
	}
}
