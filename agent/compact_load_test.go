package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// compactedSession runs two turns that read files, then /compact, and
// closes the session. It returns the session id and the workspace.
func compactedSession(t *testing.T, f *fixture) (string, string) {
	t.Helper()
	s, _, dir := f.session(ModeCode, bigFiles(2))
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"big0.go"}`)}},
		llmtest.Reply{Text: []string{"FIRST-ANSWER"}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c2", "read_file", `{"path":"big1.go"}`)}},
		llmtest.Reply{Text: []string{"SECOND-ANSWER"}},
		llmtest.Reply{Text: []string{"THE-SUMMARY"}},
	)
	for _, p := range []string{"FIRST-PROMPT read big0.go", "SECOND-PROMPT read big1.go", "/compact"} {
		if _, err := s.Prompt(context.Background(), prompt(p)); err != nil {
			t.Fatal(err)
		}
	}
	if r := f.srv.Requests(); r[len(r)-1].System != compact.SummarySystem {
		t.Fatal("/compact sent no summary request")
	}
	id := s.ID()
	s.Close()
	return id, dir
}

// A loaded session replays the whole conversation to the editor, while the
// model continues from the compacted history.
func TestLoadAfterCompactionReplaysAllAndContinuesCompacted(t *testing.T) {
	f := newFixture(t)
	id, _ := compactedSession(t, f)
	h := &testHost{}
	s, err := New(f.agent.cfg).LoadSession(context.Background(), SessionOptions{ID: id, Host: h})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var users []string
	for _, u := range h.snapshot() {
		if u.Type == UserMessageChunk {
			users = append(users, u.Chunk.Text)
		}
	}
	if strings.Join(users, "|") != "FIRST-PROMPT read big0.go|SECOND-PROMPT read big1.go|/compact" || !strings.Contains(h.text(), "FIRST-ANSWER") {
		t.Errorf("replayed prompts %q, text %q", users, h.text())
	}
	checkCompactionShown(t, h)
	f.srv.Enqueue(llmtest.Reply{Text: []string{"on"}})
	if _, err := s.Prompt(context.Background(), prompt("THIRD")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	text := allText(reqs[len(reqs)-1])
	if !strings.Contains(text, compact.HeadPrefix) || !strings.Contains(text, "THE-SUMMARY") || strings.Contains(text, "some code in file 0") {
		t.Errorf("the model does not continue from the compacted history:\n%s", text)
	}
}

// A compaction record cut by a crash is discarded on load: the model gets
// the history from before it, whole and valid.
func TestTornCompactionIsDiscardedOnLoad(t *testing.T) {
	f := newFixture(t)
	id, _ := compactedSession(t, f)
	log := filepath.Join(f.store.Dir(), id, "events.jsonl")
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), `"kind":"compaction"`)
	if i < 0 {
		t.Fatal("no compaction record in the log")
	}
	if err := os.WriteFile(log, data[:i+200], 0o600); err != nil { // the process died mid-line
		t.Fatal(err)
	}
	s, err := New(f.agent.cfg).LoadSession(context.Background(), SessionOptions{ID: id, Host: &testHost{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f.srv.Enqueue(llmtest.Reply{Text: []string{"on"}})
	if _, err := s.Prompt(context.Background(), prompt("THIRD")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	last := reqs[len(reqs)-1]
	text := allText(last)
	if strings.Contains(text, compact.HeadPrefix) || !strings.Contains(text, "FIRST-ANSWER") || !strings.Contains(text, "SECOND-ANSWER") {
		t.Errorf("after a torn compaction the model got:\n%s", text)
	}
	for i, m := range last.Messages {
		if i > 0 && m.Role == last.Messages[i-1].Role {
			t.Errorf("messages %d and %d share a role", i-1, i)
		}
		if m.Role == llm.RoleAssistant && i+1 < len(last.Messages) {
			for _, p := range m.Content {
				if p.Type == llm.PartToolUse && !hasResult(last.Messages[i+1], p.ToolCallID) {
					t.Errorf("tool call %s has no result", p.ToolCallID)
				}
			}
		}
	}
}
