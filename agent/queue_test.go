package agent

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// queued is how many prompts wait behind the session's turn.
func queued(s *Session) int {
	var n int
	s.read(func() { n = len(s.st.queued) })
	return n
}

type answered struct {
	Answer
	err error
}

// submit runs Submit on a goroutine of its own.
func submit(ctx context.Context, s *Session, text string) chan answered {
	return submitBlocks(ctx, s, prompt(text), nil)
}

// answerLog is the order prompts were answered in, as a front door that
// writes each answer before it calls Written sees it.
type answerLog struct {
	mu    sync.Mutex
	order []string
}

func submitBlocks(ctx context.Context, s *Session, p []ContentBlock, log *answerLog) chan answered {
	c := make(chan answered, 1)
	go func() {
		a, err := s.Submit(ctx, p)
		if log != nil {
			log.mu.Lock()
			log.order = append(log.order, promptText(p)+":"+string(a.StopReason))
			log.mu.Unlock()
		}
		a.Written()
		c <- answered{a, err}
	}()
	return c
}

// userTexts lists the text parts of a request's user messages, in order,
// tool results as "result:<id>".
func userTexts(r *llmtest.Request) []string {
	var out []string
	for _, m := range r.Messages {
		if m.Role != llm.RoleUser {
			continue
		}
		for _, p := range m.Content {
			switch p.Type {
			case llm.PartToolResult:
				out = append(out, "result:"+p.ToolCallID)
			case llm.PartText:
				out = append(out, p.Text)
			}
		}
	}
	return out
}

// TestQueuedPromptSteers: a prompt sent while a tool call runs is seen by
// the model in the request after the call's result, in the same user
// message; the first prompt is answered end_turn with its own request's
// tokens, the second with the rest of the turn's.
func TestQueuedPromptSteers(t *testing.T) {
	f := newFixture(t)
	s, _, _ := f.session(ModeCode, map[string]string{"a.txt": "hello"})
	gate := make(chan struct{})
	f.srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		switch r.N {
		case 0:
			<-gate // the second prompt is queued before the call runs
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"a.txt"}`)},
				Usage: &llm.Usage{InputTokens: 100, OutputTokens: 7}}
		default:
			return llmtest.Reply{Text: []string{"done"}, Usage: &llm.Usage{InputTokens: 200, OutputTokens: 9}}
		}
	})
	one := submit(context.Background(), s, "first")
	f.srv.Await(t, 1)
	two := submit(context.Background(), s, "second")
	f.awaitQueued(t, s, 1)
	close(gate)
	a, b := <-one, <-two
	if a.err != nil || a.StopReason != StopEndTurn || a.Usage.InputTokens != 100 || a.Usage.Requests != 1 {
		t.Errorf("first answered %+v", a)
	}
	if b.err != nil || b.StopReason != StopEndTurn || b.Usage.InputTokens != 200 || b.Usage.Requests != 1 {
		t.Errorf("second answered %+v", b)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	got := strings.Join(userTexts(reqs[1]), "|")
	if !strings.HasSuffix(got, "result:c1|second") || strings.Contains(userTexts(reqs[0])[len(userTexts(reqs[0]))-1], "second") {
		t.Errorf("second request's user texts: %q", got)
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last.Role != llm.RoleUser || last.Content[0].Type != llm.PartToolResult {
		t.Errorf("the steered prompt is not with the tool result: %+v", last)
	}
}

// TestQueuedPromptGetsItsOwnTurn: a prompt the turn never reached (the
// model stopped without calling a tool) starts its own turn once the first
// is answered.
func TestQueuedPromptGetsItsOwnTurn(t *testing.T) {
	f := newFixture(t)
	s, _, _ := f.session(ModeCode, nil)
	gate := make(chan struct{})
	f.srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		if r.N == 0 {
			<-gate
		}
		return llmtest.Reply{Text: []string{"reply"}}
	})
	one := submit(context.Background(), s, "first")
	f.srv.Await(t, 1)
	two := submit(context.Background(), s, "second")
	f.awaitQueued(t, s, 1)
	close(gate)
	if a := <-one; a.err != nil || a.StopReason != StopEndTurn || a.Usage.Requests != 1 {
		t.Errorf("first answered %+v", a)
	}
	if b := <-two; b.err != nil || b.StopReason != StopEndTurn || b.Usage.Requests != 1 {
		t.Errorf("second answered %+v", b)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 2 || reqs[1].LastUserText() != "second" || len(reqs[1].Messages) != 3 {
		t.Fatalf("second turn's request: %d requests, %q", len(reqs), reqs[len(reqs)-1].LastUserText())
	}
}

// TestCancelEndsQueuedPrompts: Cancel ends the turn and every prompt
// queued behind it; a prompt whose own context ends leaves the queue alone
// answered; a prompt sent afterwards runs.
func TestCancelEndsQueuedPrompts(t *testing.T) {
	f := newFixture(t)
	s, _, _ := f.session(ModeCode, nil)
	f.srv.Enqueue(llmtest.Reply{Text: []string{"slow"}, Hang: true}, llmtest.Reply{Text: []string{"again"}})
	one := submit(context.Background(), s, "one")
	f.srv.Await(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	gone := submit(ctx, s, "gone")
	two := submit(context.Background(), s, "two")
	three := submit(context.Background(), s, "three")
	f.awaitQueued(t, s, 3)
	cancel()
	if g := <-gone; g.err != nil || g.StopReason != StopCancelled {
		t.Errorf("prompt whose context ended: %+v", g)
	}
	if n := queued(s); n != 2 {
		t.Errorf("%d queued after one left, want 2", n)
	}
	s.Cancel()
	for i, c := range []chan answered{one, two, three} {
		if a := <-c; a.err != nil || a.StopReason != StopCancelled {
			t.Errorf("prompt %d answered %+v", i, a)
		}
	}
	if reason, err := s.Prompt(context.Background(), prompt("after")); err != nil || reason != StopEndTurn {
		t.Errorf("next prompt: %v, %v", reason, err)
	}
	if n := len(f.srv.Requests()); n != 2 {
		t.Errorf("the model saw %d requests, want 2 (queued prompts never reach it)", n)
	}
}

// TestPromptRightAfterCancelRuns: a prompt sent right after Cancel, with
// nothing awaited between them, is not one of the prompts the Cancel ends:
// the actor takes Cancel's token before the prompt's message, so the turn
// is cancelled before the prompt is queued behind it.
func TestPromptRightAfterCancelRuns(t *testing.T) {
	f := newFixture(t)
	s, _, _ := f.session(ModeCode, nil)
	f.srv.Enqueue(llmtest.Reply{Text: []string{"slow"}, Hang: true}, llmtest.Reply{Text: []string{"again"}})
	one := submit(context.Background(), s, "one")
	f.srv.Await(t, 1)
	s.Cancel()
	two := submit(context.Background(), s, "two")
	if a := <-one; a.err != nil || a.StopReason != StopCancelled {
		t.Errorf("the cancelled prompt answered %+v", a)
	}
	if b := <-two; b.err != nil || b.StopReason != StopEndTurn {
		t.Errorf("the prompt sent after Cancel answered %+v", b)
	}
	if reqs := f.srv.Requests(); len(reqs) != 2 || reqs[1].LastUserText() != "two" {
		t.Errorf("the model saw %d requests, want the second prompt's", len(reqs))
	}
}

// TestCloseEndsQueuedPrompts: closing the session answers queued prompts
// cancelled, and a prompt after it fails with ErrClosed.
func TestCloseEndsQueuedPrompts(t *testing.T) {
	f := newFixture(t)
	s, _, _ := f.session(ModeCode, nil)
	f.srv.Enqueue(llmtest.Reply{Text: []string{"slow"}, Hang: true})
	one := submit(context.Background(), s, "one")
	f.srv.Await(t, 1)
	two := submit(context.Background(), s, "two")
	f.awaitQueued(t, s, 1)
	s.Close()
	for i, c := range []chan answered{one, two} {
		if a := <-c; a.err != nil || a.StopReason != StopCancelled {
			t.Errorf("prompt %d answered %+v", i, a)
		}
	}
	if _, err := s.Prompt(context.Background(), prompt("late")); err == nil {
		t.Error("a prompt to a closed session ran")
	}
}

// TestSteeredPromptRefused: a queued prompt the user-prompt seam refuses,
// or that has no content, never reaches the model; the user is told why,
// and it is still answered in its place, between the prompts around it.
// A queued slash command is not steered: it waits for a turn of its own.
func TestSteeredPromptRefused(t *testing.T) {
	f, s, h, _ := pipelineSession(t, func(p *Pipeline, _ string) {
		p.UserPrompt = append(p.UserPrompt, func(_ context.Context, e TurnStartEvent) (string, error) {
			if strings.Contains(promptText(e.Prompt), "secret") {
				return "", errors.New("no secrets")
			}
			return "", nil
		})
	})
	gate := make(chan struct{})
	f.srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		if r.N == 0 {
			<-gate
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"a.txt"}`)}}
		}
		return llmtest.Reply{Text: []string{"done"}}
	})
	log := &answerLog{}
	one := submitBlocks(context.Background(), s, prompt("one"), log)
	f.srv.Await(t, 1)
	secret := submitBlocks(context.Background(), s, prompt("the secret"), log)
	f.awaitQueued(t, s, 1)
	empty := submitBlocks(context.Background(), s, []ContentBlock{{Type: "image"}}, log)
	f.awaitQueued(t, s, 2)
	fine := submitBlocks(context.Background(), s, prompt("fine"), log)
	f.awaitQueued(t, s, 3)
	mode := submitBlocks(context.Background(), s, prompt("/mode ask"), log)
	f.awaitQueued(t, s, 4)
	close(gate)
	for _, c := range []chan answered{one, secret, empty, fine, mode} {
		if a := <-c; a.err != nil || a.StopReason != StopEndTurn {
			t.Errorf("answered %+v", a)
		}
	}
	if want := "one:end_turn the secret:end_turn :end_turn fine:end_turn /mode ask:end_turn"; strings.Join(log.order, " ") != want {
		t.Errorf("answer order %q", log.order)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the slash command needs none)", len(reqs))
	}
	if got := strings.Join(userTexts(reqs[1]), "|"); strings.Contains(got, "secret") || !strings.HasSuffix(got, "result:c1|fine") {
		t.Errorf("the request after the call: %q", got)
	}
	if txt := h.text(); !strings.Contains(txt, "no secrets") || !strings.Contains(txt, "prompt is empty") {
		t.Errorf("the user was not told: %q", txt)
	}
	if s.Mode() != ModeAsk {
		t.Errorf("the queued /mode did not run: mode %s", s.Mode())
	}
}
