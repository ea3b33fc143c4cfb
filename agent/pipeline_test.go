package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// recorder is a contributor to every seam that writes down what it saw.
type recorder struct {
	mu     sync.Mutex
	events []string
}

func (r *recorder) add(format string, args ...any) {
	r.mu.Lock()
	r.events = append(r.events, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

func (r *recorder) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// attach adds the recorder to every seam of p. disk is the workspace file
// the edit seams check, so they can tell when the edit happened.
func (r *recorder) attach(p *Pipeline, disk string) {
	onDisk := func() string { b, _ := os.ReadFile(disk); return string(b) }
	p.TurnStart = append(p.TurnStart, func(_ context.Context, e TurnStartEvent) {
		r.add("turn-start %s", promptText(e.Prompt))
	})
	p.BeforeRequest = append(p.BeforeRequest, func(_ context.Context, e RequestEvent) error {
		r.add("before-request %d messages", len(e.Request.Messages))
		return nil
	})
	p.AfterResponse = append(p.AfterResponse, func(_ context.Context, e ResponseEvent) {
		r.add("after-response %d calls", len(e.Response.ToolCalls()))
	})
	p.BeforeToolCall = append(p.BeforeToolCall, func(_ context.Context, e ToolCallEvent) (json.RawMessage, error) {
		r.add("before-tool %s %s", e.Tool.Name, e.ToolCallID)
		return nil, nil
	})
	p.BeforeAsk = append(p.BeforeAsk, func(_ context.Context, e AskEvent) (AskAnswer, error) {
		r.add("before-ask %s %s", e.Tool.Name, filepath.Base(e.Ask.Path))
		return AskAsUsual, nil
	})
	p.AfterAsk = append(p.AfterAsk, func(_ context.Context, e AskEvent, err error) {
		r.add("after-ask %s %v", e.Tool.Name, err)
	})
	p.BeforeEdit = append(p.BeforeEdit, func(_ context.Context, e EditEvent) error {
		r.add("before-edit old=%q new=%q disk=%q", e.Edit.Old, e.Edit.New, onDisk())
		return nil
	})
	p.AfterEdit = append(p.AfterEdit, func(_ context.Context, e EditEvent, res edits.Result, err error) {
		r.add("after-edit applied=%v err=%v disk=%q", res.Applied, err, onDisk())
	})
	p.AfterToolCall = append(p.AfterToolCall, func(_ context.Context, e ToolCallEvent, res ToolResult) ToolResult {
		r.add("after-tool %s error=%v", e.Tool.Name, res.IsError)
		return res
	})
	p.TurnEnd = append(p.TurnEnd, func(_ context.Context, e TurnEndEvent) {
		r.add("turn-end %s %v", e.StopReason, e.Err)
	})
}

// pipelineSession opens a code-mode session whose agent runs p's seams;
// the workspace holds a.txt = "old".
func pipelineSession(t *testing.T, set func(p *Pipeline, dir string)) (*fixture, *Session, *testHost, string) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(c *Config) { set(&c.Pipeline, dir) })
	h := &testHost{}
	s, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: dir, Mode: ModeCode, Host: h})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return f, s, h, dir
}

func TestSeamsFireInOrder(t *testing.T) {
	rec := &recorder{}
	f, s, _, _ := pipelineSession(t, func(p *Pipeline, dir string) { rec.attach(p, filepath.Join(dir, "a.txt")) })
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("e1", "edit_file", `{"path":"a.txt","old_string":"old","new_string":"new"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if r, err := s.Prompt(context.Background(), prompt("change it")); err != nil || r != StopEndTurn {
		t.Fatalf("Prompt = %q, %v", r, err)
	}
	// The first request carries the prompt (workspace instructions are
	// off: the fixture's temp workspace has none).
	want := []string{
		"turn-start change it",
		"before-request 1 messages",
		"after-response 1 calls",
		"before-tool edit_file e1",
		"before-ask edit_file a.txt",
		"after-ask edit_file <nil>",
		`before-edit old="old" new="new" disk="old"`,
		`after-edit applied=true err=<nil> disk="new"`,
		"after-tool edit_file error=false",
		"before-request 3 messages",
		"after-response 0 calls",
		"turn-end end_turn <nil>",
	}
	if got := rec.list(); !slices.Equal(got, want) {
		t.Errorf("seams fired:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A refusal before the tool call: the tool does not run, the model reads
// the reason as the call's result, and the turn goes on.
func TestBeforeToolCallDenies(t *testing.T) {
	f, s, h, dir := pipelineSession(t, func(p *Pipeline, _ string) {
		p.BeforeToolCall = append(p.BeforeToolCall, func(_ context.Context, e ToolCallEvent) (json.RawMessage, error) {
			if e.Tool.Name == "write_file" {
				return nil, errors.New("writes are frozen by the release hook")
			}
			return nil, nil
		})
	})
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w1", "write_file", `{"path":"b.txt","content":"x"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("r1", "read_file", `{"path":"a.txt"}`)}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	if r, err := s.Prompt(context.Background(), prompt("write")); err != nil || r != StopEndTurn {
		t.Fatalf("Prompt = %q, %v", r, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
		t.Error("the refused write happened")
	}
	if h.askCount() != 0 {
		t.Errorf("asks = %d: a refused call must not ask", h.askCount())
	}
	reqs := f.srv.Requests()
	if r, ok := toolResult(reqs, "w1"); !ok || !r.IsError || !strings.Contains(r.Text, "frozen by the release hook") {
		t.Errorf("refused call result = %+v", r)
	}
	if r, ok := toolResult(reqs, "r1"); !ok || r.IsError || !strings.Contains(r.Text, "old") {
		t.Errorf("the turn did not go on: read result = %+v", r)
	}
	if st := h.toolStatus()["w1"]; st != ToolFailed {
		t.Errorf("refused call status = %s", st)
	}
}

// Two contributors rewrite the arguments in registration order, each
// seeing the previous one's output; the tool runs with the result.
func TestBeforeToolCallRewritesInOrder(t *testing.T) {
	rewrite := func(suffix string) BeforeToolCallFunc {
		return func(_ context.Context, e ToolCallEvent) (json.RawMessage, error) {
			var args map[string]any
			if err := json.Unmarshal(e.Input, &args); err != nil {
				return nil, err
			}
			args["content"] = args["content"].(string) + suffix
			return json.Marshal(args)
		}
	}
	f, s, _, dir := pipelineSession(t, func(p *Pipeline, _ string) {
		p.BeforeToolCall = append(p.BeforeToolCall, rewrite("-first"), rewrite("-second"))
	})
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w1", "write_file", `{"path":"b.txt","content":"x"}`)}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("write")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "b.txt")); err != nil || string(b) != "x-first-second" {
		t.Errorf("b.txt = %q, %v", b, err)
	}
}

// After-tool contributors rewrite what the model reads, in order.
func TestAfterToolCallRewritesResult(t *testing.T) {
	tag := func(s string) AfterToolCallFunc {
		return func(_ context.Context, _ ToolCallEvent, r ToolResult) ToolResult {
			r.Output = strings.ReplaceAll(r.Output, "old", "[redacted]") + s
			return r
		}
	}
	f, s, h, _ := pipelineSession(t, func(p *Pipeline, _ string) {
		p.AfterToolCall = append(p.AfterToolCall, tag(" one"), tag(" two"))
	})
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("r1", "read_file", `{"path":"a.txt"}`)}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("read")); err != nil {
		t.Fatal(err)
	}
	r, ok := toolResult(f.srv.Requests(), "r1")
	if !ok || strings.Contains(r.Text, "old") || !strings.Contains(r.Text, "[redacted]") || !strings.HasSuffix(r.Text, " one two") {
		t.Errorf("model read %+v", r)
	}
	for _, u := range h.snapshot() {
		if u.Tool == nil {
			continue
		}
		for _, c := range u.Tool.Content {
			if c.Content != nil && strings.Contains(c.Content.Text, "old") {
				t.Errorf("the editor was shown the unrewritten result %q", c.Content.Text)
			}
		}
	}
}

// A before-edit refusal reaches the model as a rejected change; nothing
// is written.
func TestBeforeEditRefuses(t *testing.T) {
	f, s, _, dir := pipelineSession(t, func(p *Pipeline, _ string) {
		p.BeforeEdit = append(p.BeforeEdit, func(_ context.Context, e EditEvent) error {
			return errors.New("checkpoint could not be saved")
		})
	})
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("e1", "edit_file", `{"path":"a.txt","old_string":"old","new_string":"new"}`)}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("edit")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "old" {
		t.Errorf("a.txt = %q after a refused edit", b)
	}
	if r, ok := toolResult(f.srv.Requests(), "e1"); !ok || !r.IsError || !strings.Contains(r.Text, "checkpoint could not be saved") {
		t.Errorf("model read %+v", r)
	}
}

// A before-ask refusal answers without bothering the user.
func TestBeforeAskRefuses(t *testing.T) {
	f, s, h, _ := pipelineSession(t, func(p *Pipeline, _ string) {
		p.BeforeAsk = append(p.BeforeAsk, func(_ context.Context, e AskEvent) (AskAnswer, error) {
			return AskAsUsual, errors.New("sandbox forbids it")
		})
	})
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "run_command", `{"command":"true"}`)}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("run")); err != nil {
		t.Fatal(err)
	}
	if h.askCount() != 0 {
		t.Errorf("asks = %d, want 0", h.askCount())
	}
	if r, ok := toolResult(f.srv.Requests(), "c1"); !ok || !r.IsError {
		t.Errorf("model read %+v", r)
	}
}

// A before-ask approval answers for the user where an allow rule could
// have, and nowhere else: a protected file still asks, and a later
// contributor's refusal still wins.
func TestBeforeAskApproves(t *testing.T) {
	var refuse atomic.Bool
	f, s, h, dir := pipelineSession(t, func(p *Pipeline, _ string) {
		p.BeforeAsk = append(p.BeforeAsk,
			func(context.Context, AskEvent) (AskAnswer, error) { return AskApprove, nil },
			func(context.Context, AskEvent) (AskAnswer, error) {
				if refuse.Load() {
					return AskAsUsual, errors.New("not this one")
				}
				return AskAsUsual, nil
			})
	})
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w1", "write_file", `{"path":"n.txt","content":"x"}`)}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("write")); err != nil {
		t.Fatal(err)
	}
	if n := h.askCount(); n != 0 {
		t.Errorf("an approved write asked the user %d times", n)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "n.txt")); err != nil || string(b) != "x" {
		t.Errorf("n.txt = %q, %v", b, err)
	}

	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w2", "write_file", `{"path":"AGENTS.md","content":"be bold"}`)}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("write the instructions")); err != nil {
		t.Fatal(err)
	}
	if n := h.askCount(); n != 1 {
		t.Errorf("a protected file asked %d times, want 1", n)
	}

	refuse.Store(true)
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w3", "write_file", `{"path":"m.txt","content":"y"}`)}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("write again")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "m.txt")); err == nil {
		t.Error("a refused write happened")
	}
	if r, ok := toolResult(f.srv.Requests(), "w3"); !ok || !r.IsError || !strings.Contains(r.Text, "not this one") {
		t.Errorf("model read %+v", r)
	}
}
