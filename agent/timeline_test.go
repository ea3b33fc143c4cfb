package agent

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// A marker written during a turn points before its prompt; a rewind asked
// during a turn happens when it ends, fires the seam, and is in the log,
// so a reopened session continues from the rewound history.
func TestMarkAndRewind(t *testing.T) {
	var mu sync.Mutex
	var fired []TimelineRewindEvent
	var s *Session
	marks := map[string]string{} // prompt text → marker to write during it
	rewinds := map[string]string{}
	f := newFixture(t, func(c *Config) {
		c.Pipeline.TurnStart = append(c.Pipeline.TurnStart, func(ctx context.Context, e TurnStartEvent) {
			if m := marks[e.Prompt[0].Text]; m != "" {
				if err := s.Mark(ctx, m); err != nil {
					t.Errorf("mark: %v", err)
				}
			}
			if m := rewinds[e.Prompt[0].Text]; m != "" {
				if deferred, err := s.Rewind(ctx, m); err != nil || !deferred {
					t.Errorf("rewind during a turn: deferred %v, %v", deferred, err)
				}
			}
		})
		c.Pipeline.TimelineRewind = append(c.Pipeline.TimelineRewind, func(_ context.Context, e TimelineRewindEvent) {
			mu.Lock()
			fired = append(fired, e)
			mu.Unlock()
		})
	})
	s, _, _ = f.session(ModeCode, nil)
	marks["one"], marks["two"] = "m1", "m2"
	rewinds["back"] = "m2"
	for _, p := range []string{"one", "two", "back"} {
		f.srv.Enqueue(llmtest.Reply{Text: []string{"ok " + p}})
		if _, err := s.Prompt(context.Background(), prompt(p)); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	if len(fired) != 1 || fired[0].Marker != "m2" || fired[0].Removed != 4 {
		t.Errorf("rewind events: %+v", fired)
	}
	mu.Unlock()
	if _, err := s.Rewind(context.Background(), "nope"); !errors.Is(err, ErrNoMarker) {
		t.Errorf("unknown marker: %v", err)
	}
	id := s.ID()
	s.Close()

	s2, err := New(f.agent.cfg).LoadSession(context.Background(), SessionOptions{ID: id, Host: &testHost{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	if _, err := s2.Prompt(context.Background(), prompt("three")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	body := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(body, `"text":"ok one"`) || strings.Contains(body, `"text":"ok two"`) || strings.Contains(body, `"text":"back"`) {
		t.Errorf("the reopened session's request is not the rewound history: %s", body)
	}
	// m1 survived the restart; m2's point is the end now, and a rewind
	// between turns happens at once.
	if deferred, err := s2.Rewind(context.Background(), "m1"); err != nil || deferred {
		t.Fatalf("rewind between turns: %v %v", deferred, err)
	}
	f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	s2.Prompt(context.Background(), prompt("four"))
	reqs = f.srv.Requests()
	if body := string(reqs[len(reqs)-1].Body); strings.Contains(body, `"text":"ok one"`) || strings.Contains(body, `"text":"three"`) {
		t.Errorf("after rewinding to m1: %s", body)
	}
}
