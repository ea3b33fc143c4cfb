package agent

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// The actor answers while a turn runs: the host, asked for permission in
// the middle of a turn, reads the session's state and switches its mode,
// and the switch decides the next call of the same turn.
func TestSessionAnswersWhileTurnRuns(t *testing.T) {
	f := newFixture(t)
	s, h, _ := f.session(ModeCode, nil)
	var seen []Lifecycle
	h.answer = func(PermissionRequest) (Decision, error) {
		l, _ := s.State()
		seen = append(seen, l)
		if s.Title() != "write twice" || s.Mode() != ModeCode {
			t.Errorf("mid-turn title %q, mode %s", s.Title(), s.Mode())
		}
		if err := s.SetMode(ModeFullAuto); err != nil {
			t.Errorf("SetMode: %v", err)
		}
		return Decision{Kind: AllowOnce}, nil
	}
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w1", "write_file", `{"path":"a.txt","content":"1"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w2", "write_file", `{"path":"b.txt","content":"2"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	done := make(chan error, 1)
	go func() {
		_, err := s.Prompt(context.Background(), prompt("write twice"))
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the turn is stuck: the actor did not answer while it ran")
	}
	if !slices.Equal(seen, []Lifecycle{AwaitingPermission}) {
		t.Errorf("asks saw lifecycles %v, want one ask while awaiting permission", seen)
	}
	if l, o := s.State(); l != Idle || o.StopReason != StopEndTurn {
		t.Errorf("after the turn: %s, %+v", l, o)
	}
	var modeUpdates int
	for _, u := range h.snapshot() {
		if u.Type == CurrentModeUpdate && u.ModeID == string(ModeFullAuto) {
			modeUpdates++
		}
	}
	if modeUpdates != 1 {
		t.Errorf("current_mode_update sent %d times", modeUpdates)
	}
}

// The log records updates in the order the wire saw them, also when
// parallel read-only calls produce them.
func TestLogOrderIsWireOrder(t *testing.T) {
	f := newFixture(t)
	s, h, _ := f.session(ModeCode, map[string]string{"a": "1", "b": "2", "c": "3", "d": "4"})
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("r1", "read_file", `{"path":"a"}`), call("r2", "read_file", `{"path":"b"}`),
			call("r3", "read_file", `{"path":"c"}`), call("r4", "list_files", `{"path":"."}`)}},
		llmtest.Reply{Text: []string{"all ", "read"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("read")); err != nil {
		t.Fatal(err)
	}
	// The last chunk is on the wire when Prompt returns.
	if got := h.text(); got != "all read" {
		t.Errorf("text on the wire = %q", got)
	}
	s.Close()
	h2 := &testHost{}
	s2, err := f.agent.LoadSession(context.Background(), SessionOptions{ID: s.ID(), Host: h2})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	toolUpdates := func(us []Update) []string {
		var out []string
		for _, u := range us {
			if u.Tool != nil {
				out = append(out, u.Tool.ID+" "+string(u.Tool.Status))
			}
		}
		return out
	}
	wire, logged := toolUpdates(h.snapshot()), toolUpdates(h2.snapshot())
	if len(wire) != 12 || !slices.Equal(wire, logged) {
		t.Errorf("wire order:\n%v\nlog order:\n%v", wire, logged)
	}
}
