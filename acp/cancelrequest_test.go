package acp

import (
	"log/slog"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestCancelRequestEndsTheTurn: $/cancel_request naming a session/prompt
// stops the turn and the prompt answers stopReason cancelled (SDK clients
// send it when the caller gives up on the request). A late one for an
// answered prompt does not touch the session's next turn.
func TestCancelRequestEndsTheTurn(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"thinking out loud "}, Hang: true}, llmtest.Reply{Text: []string{"second answer"}})
	a := agent.New(agent.Config{Home: t.TempDir(), Model: "test-model",
		Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.BaseURL(llmtest.Anthropic)})})
	c := newRawClient(t, a)
	c.alive("init")
	sid := result(t, c.request("new", "session/new", map[string]any{"cwd": t.TempDir(), "mcpServers": []any{}}))["sessionId"].(string)
	prompt := func(id any, text string) {
		c.send(jsonString(map[string]any{"jsonrpc": "2.0", "id": id, "method": "session/prompt",
			"params": map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": text}}}}))
	}
	cancel := func(id any) {
		c.send(jsonString(map[string]any{"jsonrpc": "2.0", "method": "$/cancel_request", "params": map[string]any{"requestId": id}}))
	}

	prompt(41, "talk")
	c.waitFor("the first chunk", func(m map[string]any) bool {
		return m["method"] == "session/update" && contains(jsonString(m), "thinking out loud")
	})
	cancel("41")   // a string id is a different request: ignored
	cancel("nope") // unknown: ignored
	cancel(41)
	if r := result(t, c.response(41)); r["stopReason"] != "cancelled" {
		t.Fatalf("cancelled prompt answered %v", r)
	}

	cancel(41) // late: the prompt is answered, the next turn must not stop
	prompt(42, "again")
	if r := result(t, c.response(42)); r["stopReason"] != "end_turn" {
		t.Fatalf("next prompt answered %v", r)
	}
	if got := srv.Requests(); len(got) != 2 {
		t.Errorf("model saw %d requests, want 2", len(got))
	}
}

// TestCancelRequestOnQueuedPrompt: $/cancel_request naming a queued
// session/prompt answers it cancelled at once and takes it out of the
// queue; the running prompt and the rest of the queue go on.
func TestCancelRequestOnQueuedPrompt(t *testing.T) {
	srv := llmtest.NewServer(t)
	gate, atModel := make(chan struct{}), make(chan struct{}, 1)
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		if r.N == 0 {
			atModel <- struct{}{}
			<-gate
		}
		return llmtest.Reply{Text: []string{"reply " + r.LastUserText()}}
	})
	queued := testenv.NewWatch("prompt queued behind the running turn")
	a := agent.New(agent.Config{Home: t.TempDir(), Model: "test-model",
		Log:      slog.New(slog.NewTextHandler(queued, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.BaseURL(llmtest.Anthropic)})})
	c := newRawClient(t, a)
	c.alive("init")
	sid := result(t, c.request("new", "session/new", map[string]any{"cwd": t.TempDir(), "mcpServers": []any{}}))["sessionId"].(string)
	prompt := func(id any, text string) {
		c.send(jsonString(map[string]any{"jsonrpc": "2.0", "id": id, "method": "session/prompt",
			"params": map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": text}}}}))
	}
	prompt(1, "running")
	<-atModel
	prompt(2, "dropped")
	queued.Next(t, time.Minute)
	prompt(3, "kept")
	queued.Next(t, time.Minute)
	c.send(jsonString(map[string]any{"jsonrpc": "2.0", "method": "$/cancel_request", "params": map[string]any{"requestId": 2}}))
	if r := result(t, c.response(2)); r["stopReason"] != "cancelled" {
		t.Fatalf("cancelled queued prompt answered %v", r)
	}
	close(gate)
	for _, id := range []int{1, 3} {
		if r := result(t, c.response(id)); r["stopReason"] != "end_turn" {
			t.Errorf("prompt %d answered %v", id, r)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].LastUserText() != "kept" {
		t.Errorf("the model saw %d requests, the last %q", len(reqs), reqs[len(reqs)-1].LastUserText())
	}
}
