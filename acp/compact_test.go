package acp

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestCompactOverACP: /compact is offered in available_commands, and what
// the editor sees of it (the "Compacting conversation…" tool call, its end
// and the usage_update after) is valid against the ACP schema.
func TestCompactOverACP(t *testing.T) {
	notification := acpSchema(t, "SessionNotification")
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"first answer"}}, llmtest.Reply{Text: []string{"the summary"}})
	a := agent.New(agent.Config{Home: t.TempDir(), Model: "claude-haiku-4-5",
		Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.BaseURL(llmtest.Anthropic)})})
	c := newRawClient(t, a)
	result(t, c.request("1", "initialize", initParams()))
	sid := result(t, c.request("2", "session/new", map[string]any{"cwd": t.TempDir(), "mcpServers": []any{}}))["sessionId"]
	for i, text := range []string{"hello", "/compact the greeting"} {
		r := result(t, c.request(string(rune('3'+i)), "session/prompt", map[string]any{"sessionId": sid,
			"prompt": []any{map[string]any{"type": "text", "text": text}}}))
		if r["stopReason"] != "end_turn" {
			t.Fatalf("%s: %v", text, r)
		}
	}
	var offered, started, ended, usageAfter bool
	for _, n := range c.notifications("session/update") {
		params := n["params"].(map[string]any)
		u := params["update"].(map[string]any)
		switch u["sessionUpdate"] {
		case "available_commands_update":
			for _, cmd := range u["availableCommands"].([]any) {
				offered = offered || cmd.(map[string]any)["name"] == "compact"
			}
		case "tool_call":
			if u["title"] == "Compacting conversation…" {
				validate(t, notification, "the compaction's tool_call", params)
				started = true
			}
		case "tool_call_update":
			if started && u["status"] == "completed" {
				validate(t, notification, "the compaction's end", params)
				ended = true
			}
		case "usage_update":
			if ended {
				validate(t, notification, "the usage_update after compaction", params)
				usageAfter = true
			}
		}
	}
	if !offered || !started || !ended || !usageAfter {
		t.Errorf("offered %v, started %v, ended %v, usage_update after %v", offered, started, ended, usageAfter)
	}
	if reqs := srv.Requests(); len(reqs) != 2 || reqs[1].System != compact.SummarySystem {
		t.Errorf("the model got %d requests, the last not a summary", len(reqs))
	}
}

// TestKill9DuringCompaction kills tandem while /compact waits for its
// summary: a fresh process loads the session with the compaction shown as
// interrupted, and the next request carries the history from before it,
// whole and valid.
func TestKill9DuringCompaction(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, dir := t.TempDir(), workspace(t, nil)
	srv.Enqueue(llmtest.Reply{Text: []string{"first answer"}})
	// The summary request hangs once it has said it arrived.
	summaryAsked := make(chan struct{})
	var once sync.Once
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		if r.System != compact.SummarySystem {
			return llmtest.Reply{Status: http.StatusBadRequest}
		}
		once.Do(func() { close(summaryAsked) })
		return llmtest.Reply{Text: []string{"a summary that never finishes"}, Hang: true}
	})
	ed1 := newEditor(t)
	p1 := startTandem(t, srv, home, ed1)
	p1.initialize(t, true, false)
	sid := p1.newSession(t, dir)
	if r, err := p1.prompt(t, sid, "first"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("first prompt: %q, %v", r, err)
	}
	go p1.prompt(t, sid, "/compact the first answer") // the process dies under it
	select {
	case <-summaryAsked:
	case <-time.After(15 * time.Second):
		t.Fatal("the compaction never asked for its summary")
	}
	p1.kill9(t)

	ed2 := newEditor(t)
	p2 := startTandem(t, srv, home, ed2)
	p2.initialize(t, true, false)
	if _, err := p2.conn.LoadSession(ctxT(t), sdk.LoadSessionRequest{SessionId: sid, Cwd: dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	var started, failed bool
	for _, r := range ed2.sessionUpdates(sid) {
		if r.u.Tool == nil {
			continue
		}
		started = started || r.u.Tool.Title == "Compacting conversation…"
		failed = failed || r.u.Tool.Status == agent.ToolFailed && strings.Contains(r.raw, "interrupted: tandem stopped")
	}
	if !started || !failed {
		t.Errorf("replay: compaction shown %v, ended interrupted %v", started, failed)
	}
	srv.Enqueue(llmtest.Reply{Text: []string{"after the crash"}})
	if r, err := p2.prompt(t, sid, "third"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("prompt after load: %q, %v", r, err)
	}
	reqs := srv.Requests()
	next := reqs[len(reqs)-1]
	checkPaired(t, next.Messages)
	sent := jsonString(next.Messages)
	if !strings.Contains(sent, "first answer") || strings.Contains(sent, "compacted to fit") {
		t.Errorf("the next request does not carry the history from before the compaction: %s", sent)
	}
}
