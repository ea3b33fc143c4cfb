package turn_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/turn"
)

const tooLong = "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."

// TestOverflowCompactsOnce: a request the provider refuses as too long is
// learnt from, compacted and sent once more.
func TestOverflowCompactsOnce(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Status: 400, Message: tooLong}, llmtest.Reply{Text: []string{"fits"}})
	s := newSession(t)
	out, err := turn.Run(context.Background(), config(srv, 10), s, user("hi"))
	if err != nil || out.Stop != turn.EndTurn || texts(out.Last) != "fits" {
		t.Fatalf("Run = %+v, %v", out, err)
	}
	if s.compacts != 1 || len(s.refused) != 1 || s.refused[0] != (turn.Sent{Model: "test-model", Estimate: 1000}) {
		t.Errorf("compacted %d times, refusals %+v", s.compacts, s.refused)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

// TestOverflowTwice: still too long after the compaction ends the turn
// with the session's overflow error, the request sealed in the history;
// a turn that may not compact (a child) does not try.
func TestOverflowTwice(t *testing.T) {
	for _, mayCompact := range []bool{true, false} {
		srv := llmtest.NewServer(t)
		srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Status: 400, Message: tooLong} })
		s := newSession(t)
		c := config(srv, 10)
		c.Compact = mayCompact
		_, err := turn.Run(context.Background(), c, s, user("hi"))
		if err == nil || strings.Contains(err.Error(), "still too long") != mayCompact {
			t.Errorf("compact %v: err %v", mayCompact, err)
		}
		want := 1
		if mayCompact {
			want = 2
		}
		if n := len(srv.Requests()); n != want || s.compacts != want-1 || len(s.refused) != want {
			t.Errorf("compact %v: %d requests, %d compactions, %d refusals", mayCompact, n, s.compacts, len(s.refused))
		}
		if last := s.history[len(s.history)-1]; last.Role != llm.RoleAssistant || !strings.Contains(texts(last), "did not complete") {
			t.Errorf("compact %v: the history ends with %+v", mayCompact, last)
		}
	}
}

// TestCompactBeforeRequest: a history over the threshold is compacted
// before the request is built from it.
func TestCompactBeforeRequest(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	s := newSession(t)
	s.history = []llm.Message{user("old"), llm.Text(llm.RoleAssistant, "old answer")}
	s.full = true
	if _, err := turn.Run(context.Background(), config(srv, 10), s, user("new")); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || len(reqs[0].Messages) != 1 || texts(reqs[0].Messages[0]) != "new" {
		t.Errorf("the request carried %+v, want the compacted history", reqs[0].Messages)
	}
}

// TestBrokenStream: a stream cut mid-reply fails the turn with the
// provider's error, what was streamed sealed into the history.
func TestBrokenStream(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(func(*llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Text: []string{"half", "way"}, CutAfter: 3}
	})
	s := newSession(t)
	out, err := turn.Run(context.Background(), config(srv, 10), s, user("hi"))
	if err == nil || out.Stop != "" {
		t.Fatalf("Run = %q, %v; want an error", out.Stop, err)
	}
	last := s.history[len(s.history)-1]
	if said := strings.Join(s.chunks, ""); last.Role != llm.RoleAssistant || texts(last) != said || said == "" {
		t.Errorf("the history ends with %+v", last)
	}
}
