package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/store"
)

// A stored session replays as the editor saw it and continues with the
// model's full history, in a new Agent (as after a restart).
func TestLoadReplaysAndContinues(t *testing.T) {
	f := newFixture(t)
	s, h, dir := f.session(ModeAutoEdit, map[string]string{"a.txt": "old\n"})
	f.srv.Enqueue(
		llmtest.Reply{Text: []string{"Edit", "ing."}, ToolCalls: []llmtest.ToolCall{{ID: "e1", Name: "edit_file", Args: `{"path":"a.txt","old_string":"old","new_string":"new"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "p1", Name: "update_plan", Args: `{"plan":[{"content":"edit a.txt","status":"completed"}]}`}}},
		llmtest.Reply{Text: []string{"All done."}},
	)
	if _, err := s.Prompt(context.Background(), prompt("change a.txt\nplease")); err != nil {
		t.Fatal(err)
	}
	id := s.ID()
	live := h.snapshot()
	s.Close()

	metas, _ := f.agent.ListSessions(dir)
	if len(metas) != 1 || metas[0].ID != id || metas[0].Title != "change a.txt" || metas[0].Mode != "auto-edit" {
		t.Fatalf("sessions = %+v", metas)
	}

	a2 := New(f.agent.cfg)
	h2 := &testHost{}
	s2, err := a2.LoadSession(context.Background(), SessionOptions{ID: id, Host: h2})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if s2.Cwd() != dir || s2.Mode() != ModeAutoEdit {
		t.Errorf("loaded cwd %s mode %s", s2.Cwd(), s2.Mode())
	}
	replay := h2.snapshot()
	if replay[0].Type != UserMessageChunk || replay[0].Chunk.Text != "change a.txt\nplease" {
		t.Errorf("first replayed update = %+v", replay[0])
	}
	if got := h2.text(); got != "Editing.All done." {
		t.Errorf("replayed text = %q", got)
	}
	// Chunks are coalesced: one per message, not one per token.
	var chunks int
	for _, u := range replay {
		if u.Type == AgentMessageChunk {
			chunks++
		}
	}
	if chunks != 2 {
		t.Errorf("replayed %d agent chunks, want 2", chunks)
	}
	// Every tool update the editor saw live is replayed, in order.
	toolKey := func(us []Update) string {
		var b strings.Builder
		for _, u := range us {
			if u.Tool != nil {
				b.WriteString(string(u.Type) + "/" + u.Tool.ID + "/" + string(u.Tool.Status) + ";")
			}
			if u.Type == PlanUpdated {
				b.WriteString("plan;")
			}
		}
		return b.String()
	}
	if toolKey(replay) != toolKey(live) {
		t.Errorf("replayed tool updates\n%s\nlive\n%s", toolKey(replay), toolKey(live))
	}

	f.srv.Enqueue(llmtest.Reply{Text: []string{"continuing"}})
	if _, err := s2.Prompt(context.Background(), prompt("more")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	last := reqs[len(reqs)-1]
	prev := reqs[len(reqs)-2]
	if len(last.Messages) != len(prev.Messages)+2 {
		t.Errorf("resumed request has %d messages, previous %d", len(last.Messages), len(prev.Messages))
	}
}

func TestLoadUnknownSession(t *testing.T) {
	f := newFixture(t)
	for _, id := range []string{"s_nope", "../etc", ""} {
		if _, err := f.agent.LoadSession(context.Background(), SessionOptions{ID: id, Host: &testHost{}}); !errors.Is(err, ErrNoSession) {
			t.Errorf("LoadSession(%q) = %v, want ErrNoSession", id, err)
		}
	}
}

func TestSlashCommands(t *testing.T) {
	f := newFixture(t)
	s, h, _ := f.session(ModeCode, nil)
	names := map[string]bool{}
	for _, c := range s.Commands() {
		names[c.Name] = true
	}
	for _, want := range []string{"compact", "init", "instructions", "mode", "model"} {
		if !names[want] {
			t.Errorf("command %s not offered", want)
		}
	}
	if _, err := s.Prompt(context.Background(), prompt("/model other-model")); err != nil || s.Model() != "other-model" {
		t.Fatalf("/model: %v, model %s", err, s.Model())
	}
	if _, err := s.Prompt(context.Background(), prompt("/mode nonsense")); err != nil || s.Mode() != ModeCode {
		t.Fatalf("/mode nonsense: %v, mode %s", err, s.Mode())
	}
	if !strings.Contains(h.text(), "unknown mode") {
		t.Errorf("no explanation for a bad mode: %q", h.text())
	}
	if _, err := s.Prompt(context.Background(), prompt("/instructions")); err != nil {
		t.Fatal(err)
	}
	if n := len(f.srv.Requests()); n != 0 {
		t.Errorf("local commands made %d model requests", n)
	}
	// /init is a model turn with a drafted prompt, on the new model.
	f.srv.Enqueue(llmtest.Reply{Text: []string{"drafting"}})
	if _, err := s.Prompt(context.Background(), prompt("/init")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].LastUserText(), "AGENTS.md") || reqs[0].Model != "other-model" {
		t.Errorf("/init request: model %s, text %q", reqs[0].Model, reqs[0].LastUserText())
	}
	// An unknown slash word is an ordinary prompt.
	f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	if _, err := s.Prompt(context.Background(), prompt("/usr/bin is where?")); err != nil {
		t.Fatal(err)
	}
	if n := len(f.srv.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
}

// A subagent's call cut off by a crash is replayed interrupted under the
// same task call: the invented end keeps the nesting of the call's start.
func TestLoadInterruptsNestedCallUnderItsTask(t *testing.T) {
	f := newFixture(t)
	s, _, _ := f.session(ModeCode, nil)
	id := s.ID()
	s.Close()
	nest := &Nesting{ParentCall: "t1", Agent: "finder"}
	for _, u := range []Update{
		{Type: ToolCallStarted, Tool: &ToolCall{ID: "t1", Title: "Task", Status: ToolPending}},
		{Type: ToolCallStarted, Tool: &ToolCall{ID: "t1/c1", Title: "Read a.txt", Status: ToolPending}, Nest: nest},
	} {
		b, err := u.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		l, err := f.store.OpenLog(id)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Append(store.Record{Kind: recUpdate, Data: b}); err != nil {
			t.Fatal(err)
		}
		l.Close()
	}
	h := &testHost{}
	s2, err := New(f.agent.cfg).LoadSession(context.Background(), SessionOptions{ID: id, Host: h})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	ended := map[string]*Nesting{}
	for _, u := range h.snapshot() {
		if u.Type == ToolCallUpdated && u.Tool.Status == ToolFailed {
			ended[u.Tool.ID] = u.Nest
		}
	}
	if n, ok := ended["t1/c1"]; !ok || n == nil || *n != *nest {
		t.Errorf("the child's call ended %v, nested %+v; want interrupted under t1", ok, n)
	}
	if n, ok := ended["t1"]; !ok || n != nil {
		t.Errorf("the task call ended %v, nested %+v", ok, n)
	}
}
