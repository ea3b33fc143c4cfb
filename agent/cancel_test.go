package agent

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

func TestCancelMidStream(t *testing.T) {
	f := newFixture(t)
	s, h, _ := f.session(ModeCode, nil)
	f.srv.Enqueue(llmtest.Reply{Text: []string{"thinking about it"}, Hang: true})
	done := make(chan StopReason, 1)
	go func() {
		r, err := s.Prompt(context.Background(), prompt("long"))
		if err != nil {
			t.Errorf("Prompt: %v", err)
		}
		done <- r
	}()
	h.await(t, func() bool { return h.text() == "thinking about it" })
	start := time.Now()
	s.Cancel()
	select {
	case r := <-done:
		if r != StopCancelled {
			t.Errorf("stop reason = %q", r)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("cancel took %v", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancel did not end the turn")
	}
	if l, _ := s.State(); l != Cancelled {
		t.Errorf("lifecycle = %s", l)
	}
	// Usable afterwards, and the model sees what was said before the cancel.
	f.srv.Enqueue(llmtest.Reply{Text: []string{"again"}})
	if r, err := s.Prompt(context.Background(), prompt("next")); err != nil || r != StopEndTurn {
		t.Fatalf("next prompt = %q, %v", r, err)
	}
	reqs := f.srv.Requests()
	last := reqs[len(reqs)-1]
	if len(last.Messages) != 3 || last.Messages[1].Content[0].Text != "thinking about it" {
		t.Errorf("history after cancel = %+v", last.Messages)
	}
}

// Cancelling during a command kills its whole process group: a background
// grandchild must not survive.
func TestCancelMidCommand(t *testing.T) {
	f := newFixture(t)
	s, _, dir := f.session(ModeFullAuto, nil)
	pids := testenv.FifoLines(t, filepath.Join(dir, "child.fifo"))
	f.srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "run_command",
		Args: `{"command":"sleep 60 & echo $! > child.fifo; wait"}`}}})
	done := make(chan StopReason, 1)
	go func() {
		r, _ := s.Prompt(context.Background(), prompt("run"))
		done <- r
	}()
	pid, err := strconv.Atoi(testenv.NextLine(t, pids, 10*time.Second, "the child's pid"))
	if err != nil {
		t.Fatal(err)
	}
	s.Cancel()
	select {
	case r := <-done:
		if r != StopCancelled {
			t.Errorf("stop reason = %q", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancel did not end the turn")
	}
	if !testenv.WaitExited(pid, 10*time.Second) {
		t.Fatal("the command's child outlived the cancel")
	}
	// The cancelled call still gets a result, so the history stays valid.
	f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	if r, err := s.Prompt(context.Background(), prompt("next")); err != nil || r != StopEndTurn {
		t.Fatalf("next prompt = %q, %v", r, err)
	}
	if r, ok := toolResult(f.srv.Requests(), "c1"); !ok || !r.IsError {
		t.Errorf("cancelled command result = %+v", r)
	}
}

// alive reports whether pid runs (a zombie counts as gone).
func alive(pid int) bool { return testenv.Alive(pid) }

// A withdrawn permission request (the editor answers "cancelled") ends the turn.
func TestCancelledPermissionEndsTurn(t *testing.T) {
	f := newFixture(t)
	s, h, dir := f.session(ModeCode, nil)
	h.answer = func(PermissionRequest) (Decision, error) { return Decision{Cancelled: true}, nil }
	f.srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "w", Name: "write_file", Args: `{"path":"x","content":"y"}`}}})
	r, err := s.Prompt(context.Background(), prompt("write"))
	if err != nil || r != StopCancelled {
		t.Fatalf("Prompt = %q, %v", r, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Error("file written after a cancelled permission")
	}
	if n := len(f.srv.Requests()); n != 1 {
		t.Errorf("requests = %d, want 1 (no request after the cancel)", n)
	}
}

func TestCloseDuringTurn(t *testing.T) {
	f := newFixture(t)
	s, _, _ := f.session(ModeCode, nil)
	f.srv.Enqueue(llmtest.Reply{Hang: true})
	done := make(chan struct{})
	go func() {
		s.Prompt(context.Background(), prompt("x"))
		close(done)
	}()
	f.srv.Await(t, 1)
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close left the prompt running")
	}
	if _, err := s.Prompt(context.Background(), prompt("y")); err == nil {
		t.Error("prompt after Close succeeded")
	}
}
