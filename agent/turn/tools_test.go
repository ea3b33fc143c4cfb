package turn_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/agent/turn"
)

// results is the tool results of the turn's first tool round.
func results(s *session) []llm.Part {
	for _, m := range s.history {
		if m.Role == llm.RoleUser && len(m.Content) > 0 && m.Content[0].Type == llm.PartToolResult {
			return m.Content
		}
	}
	return nil
}

// TestReadsRunTogether: consecutive reads run concurrently, a call that
// may change the workspace runs alone after them, and the results come
// back in call order.
func TestReadsRunTogether(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{
			{ID: "r1", Name: "read", Args: `{"path":"a"}`},
			{ID: "r2", Name: "read", Args: `{"path":"b"}`},
			{ID: "e1", Name: "edit", Args: `{"path":"c"}`},
			{ID: "r3", Name: "read", Args: `{"path":"d"}`},
		}},
		llmtest.Reply{Text: []string{"done"}},
	)
	var mu sync.Mutex
	var order []string
	both := make(chan struct{})
	var arrived sync.WaitGroup
	arrived.Add(2)
	go func() { arrived.Wait(); close(both) }()
	read := &tool{name: "read", group: tools.GroupRead, run: func(ctx context.Context, env *tools.Env, in json.RawMessage) (tools.Result, error) {
		if env.CallID != "r3" {
			arrived.Done()
			select { // r1 and r2 are both running, or this waits forever
			case <-both:
			case <-time.After(10 * time.Second):
				return tools.Result{}, errors.New("the other read never ran beside this one")
			}
		}
		mu.Lock()
		order = append(order, env.CallID)
		mu.Unlock()
		return tools.Result{Output: env.CallID}, nil
	}}
	edit := &tool{name: "edit", group: tools.GroupEdit, run: func(ctx context.Context, env *tools.Env, in json.RawMessage) (tools.Result, error) {
		mu.Lock()
		order = append(order, env.CallID)
		mu.Unlock()
		return tools.Result{Output: env.CallID}, nil
	}}
	s := newSession(t, read, edit)
	if _, err := turn.Run(context.Background(), config(srv, 10), s, user("hi")); err != nil {
		t.Fatal(err)
	}
	if len(order) != 4 || !slices.Equal(order[2:], []string{"e1", "r3"}) {
		t.Errorf("ran in order %q: the reads first (either order), then e1, then r3", order)
	}
	var got []string
	for _, p := range results(s) {
		got = append(got, p.ToolCallID+"="+p.Text)
	}
	want := []string{"r1=r1 (seen)", "r2=r2 (seen)", "e1=e1 (seen)", "r3=r3 (seen)"}
	if !slices.Equal(got, want) {
		t.Errorf("results %q, want %q", got, want)
	}
	// A call that may ask is started by its own ask or progress, not by
	// the stage; three groups: the two reads, the edit, the last read.
	steps := s.steps()
	if slices.Contains(steps, "start e1") || !slices.Contains(steps, "start r3") {
		t.Errorf("steps %q", steps)
	}
	groups := 0
	for _, st := range steps {
		if st == "group" {
			groups++
		}
	}
	if groups != 3 {
		t.Errorf("%d groups, want 3: %q", groups, steps)
	}
}

// TestRefusedCalls: a call to no tool, to a tool the mode hides, or with
// arguments that are no JSON object is answered with an error the model
// can act on, and the tool never runs.
func TestRefusedCalls(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{
			{ID: "c1", Name: "nosuch", Args: `{}`},
			{ID: "c2", Name: "edit", Args: `{}`},
			{ID: "c3", Name: "read", Args: `[1]`},
		}},
		llmtest.Reply{Text: []string{"sorry"}},
	)
	ran := false
	never := func(context.Context, *tools.Env, json.RawMessage) (tools.Result, error) {
		ran = true
		return tools.Result{}, nil
	}
	s := newSession(t, &tool{name: "edit", group: tools.GroupEdit, run: never}, &tool{name: "read", group: tools.GroupRead, run: never})
	s.hidden = tools.GroupEdit
	if _, err := turn.Run(context.Background(), config(srv, 10), s, user("hi")); err != nil {
		t.Fatal(err)
	}
	if ran {
		t.Error("a refused call ran")
	}
	wants := []string{`no tool named "nosuch"`, "edit is not available in ask mode", "not a valid JSON object"}
	rs := results(s)
	for i, want := range wants {
		if i >= len(rs) || !rs[i].IsError || !strings.Contains(rs[i].Text, want) {
			t.Errorf("result %d: %+v, want an error saying %q", i, rs, want)
		}
	}
	if got := s.steps(); !slices.Contains(got, "refuse nosuch") || !slices.Contains(got, "refuse edit") || !slices.Contains(got, "refuse read") {
		t.Errorf("steps %q", got)
	}
	if reqs := srv.Requests(); len(reqs) == 0 || slices.Contains(reqs[0].Tools, "edit") {
		t.Errorf("the request offered a hidden tool: %+v", reqs[0].Tools)
	}
}

// TestToolFailure: a tool's own failure is the model's error result and
// the session's to log; nothing it touched counts.
func TestToolFailure(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "read", Args: `{}`}}}, llmtest.Reply{Text: []string{"ok"}})
	broken := &tool{name: "read", group: tools.GroupRead, run: func(context.Context, *tools.Env, json.RawMessage) (tools.Result, error) {
		return tools.Result{Touched: []string{"x"}}, errors.New("disk on fire")
	}}
	s := newSession(t, broken)
	s.reached = "reached "
	if _, err := turn.Run(context.Background(), config(srv, 10), s, user("hi")); err != nil {
		t.Fatal(err)
	}
	rs := results(s)
	if len(rs) != 1 || !rs[0].IsError || rs[0].Text != "read failed: disk on fire" {
		t.Errorf("results %+v", rs)
	}
	if !slices.Contains(s.steps(), "fail c1: read failed: disk on fire") {
		t.Errorf("steps %q", s.steps())
	}
}
