package turn_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/agent/turn"
)

// TestRunOnePrompt follows one prompt through the loop: the user message,
// a request whose response calls a tool, the result with the instructions
// it reached and a steered prompt, the next request, the stop.
func TestRunOnePrompt(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{Reasoning: []string{"hmm"}, Text: []string{"look", "ing"}, ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "read", Args: `{"path":"a.go"}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	s := newSession(t, echo("read", tools.GroupRead))
	s.reached = "rules for "
	s.steered = []llm.Part{{Type: llm.PartText, Text: "also this"}}
	out, err := turn.Run(context.Background(), config(srv, 10), s, user("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Stop != turn.EndTurn || texts(out.Last) != "done" {
		t.Errorf("outcome %q %q, want end_turn \"done\"", out.Stop, texts(out.Last))
	}
	want := []string{
		"request 1 tools", "response tool_use",
		"group", "open c1", "before c1", "start c1", "report c1",
		"request 1 tools", "response end_turn", "stop seam 0",
	}
	if got := s.steps(); !slices.Equal(got, want) {
		t.Errorf("steps\n got %q\nwant %q", got, want)
	}
	var got []string
	for _, m := range s.history {
		got = append(got, string(m.Role)+": "+texts(m))
	}
	wantH := []string{"user: hi", "assistant: hmm|looking", "user: read a.go (seen)|rules for a.go|also this", "assistant: done"}
	if !slices.Equal(got, wantH) {
		t.Errorf("history\n got %q\nwant %q", got, wantH)
	}
	if strings.Join(s.chunks, "") != "(hmm)lookingdone" {
		t.Errorf("chunks %q", s.chunks)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || len(reqs[1].Messages) < 3 || reqs[1].Model != "test-model" || reqs[1].System != "be brief" {
		t.Fatalf("the model saw %d requests, the second %+v", len(reqs), reqs[len(reqs)-1])
	}
	if r := reqs[1].Messages[2].Content[0]; r.Type != llm.PartToolResult || r.ToolCallID != "c1" {
		t.Errorf("the second request's results begin with %+v", r)
	}
}

// TestStopSeamContinues: a stop seam's reason goes to the model as the
// next user message, with the prompts steered meanwhile, and the seam is
// told how many rounds it asked for.
func TestStopSeamContinues(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"first"}}, llmtest.Reply{Text: []string{"second"}})
	s := newSession(t)
	s.stopWhy = []string{"the tests fail"}
	s.steered = []llm.Part{{Type: llm.PartText, Text: "queued"}}
	out, err := turn.Run(context.Background(), config(srv, 10), s, user("hi"))
	if err != nil || out.Stop != turn.EndTurn || texts(out.Last) != "second" {
		t.Fatalf("Run = %+v, %v", out, err)
	}
	if got := texts(s.history[2]); got != "the tests fail|queued" {
		t.Errorf("the continuation is %q", got)
	}
	if got := s.steps(); !slices.Contains(got, "stop seam 0") || !slices.Contains(got, "stop seam 1") {
		t.Errorf("steps %q", got)
	}
}

// TestStopReasons: the model's own stop reasons end the turn without the
// stop seam, except end_turn.
func TestStopReasons(t *testing.T) {
	for _, tt := range []struct {
		stop string
		want turn.Stop
	}{{"max_tokens", turn.MaxTokens}, {"refusal", turn.Refusal}, {"end_turn", turn.EndTurn}} {
		srv := llmtest.NewServer(t)
		srv.Enqueue(llmtest.Reply{Text: []string{"x"}, Stop: tt.stop})
		s := newSession(t)
		out, err := turn.Run(context.Background(), config(srv, 10), s, user("hi"))
		if err != nil || out.Stop != tt.want {
			t.Errorf("%s: Run = %q, %v; want %q", tt.stop, out.Stop, err, tt.want)
		}
		if seam := slices.Contains(s.steps(), "stop seam 0"); seam != (tt.want == turn.EndTurn) {
			t.Errorf("%s: stop seam ran: %v", tt.stop, seam)
		}
	}
}

// TestMaxRequests: a model that never stops calling tools is stopped at
// the limit, its results in the history.
func TestMaxRequests(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(func(*llmtest.Request) llmtest.Reply {
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read", Args: `{"path":"x"}`}}}
	})
	s := newSession(t, echo("read", tools.GroupRead))
	out, err := turn.Run(context.Background(), config(srv, 3), s, user("hi"))
	if err != nil || out.Stop != turn.MaxTurnRequests {
		t.Fatalf("Run = %q, %v", out.Stop, err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	if last := s.history[len(s.history)-1]; last.Role != llm.RoleUser || last.Content[0].Type != llm.PartToolResult {
		t.Errorf("the history ends with %+v", last)
	}
}

// TestCancelMidStream: cancelling while the reply streams ends the turn
// cancelled, not failed, with what was said sealed into the history.
func TestCancelMidStream(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"partial"}, Hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := newSession(t)
	s.onChunk = func(string) { cancel() }
	out, err := turn.Run(ctx, config(srv, 10), s, user("hi"))
	if err != nil || out.Stop != turn.Cancelled {
		t.Fatalf("Run = %q, %v; want cancelled", out.Stop, err)
	}
	if last := s.history[len(s.history)-1]; last.Role != llm.RoleAssistant || texts(last) != "partial" {
		t.Errorf("the history ends with %+v", last)
	}
}

// TestCancelDuringTool: a call cancelled while it runs fails as
// cancelled, its result still follows the call, and no request follows.
func TestCancelDuringTool(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "wait"}}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wait := &tool{name: "wait", group: tools.GroupExecute, run: func(ctx context.Context, _ *tools.Env, _ json.RawMessage) (tools.Result, error) {
		cancel()
		<-ctx.Done()
		return tools.Result{}, ctx.Err()
	}}
	s := newSession(t, wait)
	s.steered = []llm.Part{{Type: llm.PartText, Text: "not now"}}
	out, err := turn.Run(ctx, config(srv, 10), s, user("hi"))
	if err != nil || out.Stop != turn.Cancelled {
		t.Fatalf("Run = %q, %v; want cancelled", out.Stop, err)
	}
	if got := texts(s.history[len(s.history)-1]); got != "Cancelled by the user." {
		t.Errorf("the last result is %q (a cancelled turn steers nothing)", got)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests after a cancel, want 1", n)
	}
	if got := s.steps(); !slices.Contains(got, "fail c1: Cancelled by the user.") {
		t.Errorf("steps %q", got)
	}
}
