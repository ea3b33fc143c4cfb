package agent

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/store"
)

// fixture is one agent talking to the fake model server over real HTTP.
type fixture struct {
	t     *testing.T
	srv   *llmtest.Server
	agent *Agent
	home  string
	store *store.Store
	// queueLog hears the agent's log of prompts queued behind a turn.
	queueLog *queueLog
}

func newFixture(t *testing.T, tweak ...func(*Config)) *fixture {
	t.Helper()
	srv := llmtest.NewServer(t)
	cfg := newBenchConfig(t, srv)
	ql := &queueLog{}
	cfg.Log = slog.New(ql)
	for _, f := range tweak {
		f(&cfg)
	}
	return &fixture{t: t, srv: srv, agent: New(cfg), home: cfg.Home, store: cfg.Store, queueLog: ql}
}

// newBenchConfig points an agent at srv with a store in a temp home.
func newBenchConfig(t testing.TB, srv *llmtest.Server) Config {
	home := t.TempDir()
	st, err := store.Open(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		Provider: anthropic.New(anthropic.Options{APIKey: "test-key", BaseURL: srv.BaseURL(llmtest.Anthropic),
			Transport: llm.Transport{Retry: llm.RetryPolicy{Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}}}),
		Model: "test-model",
		Home:  home,
		Store: st,
	}
}

// session opens a session in a fresh workspace holding files.
func (f *fixture) session(mode Mode, files map[string]string) (*Session, *testHost, string) {
	f.t.Helper()
	dir := writeTree(f.t, files)
	h := &testHost{}
	s, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: dir, Mode: mode, Host: h})
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { s.Close() })
	return s, h, dir
}

func prompt(text string) []ContentBlock { return []ContentBlock{{Type: "text", Text: text}} }

func call(id, name, args string) llmtest.ToolCall {
	return llmtest.ToolCall{ID: id, Name: name, Args: args, Split: 3}
}

// toolResult finds the tool_result for id in the recorded requests.
func toolResult(reqs []*llmtest.Request, id string) (llm.Part, bool) {
	for _, r := range reqs {
		for _, m := range r.Messages {
			for _, p := range m.Content {
				if p.Type == llm.PartToolResult && p.ToolCallID == id {
					return p, true
				}
			}
		}
	}
	return llm.Part{}, false
}

func TestToolLoop(t *testing.T) {
	f := newFixture(t)
	s, h, dir := f.session(ModeCode, map[string]string{"main.go": "package main\n\nfunc main() {}\n"})
	f.srv.Enqueue(
		llmtest.Reply{Text: []string{"Let me look."}, ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"main.go"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c2", "edit_file", `{"path":"main.go","old_string":"func main() {}","new_string":"func main() { println(1) }"}`)}},
		llmtest.Reply{Text: []string{"Done", "."}},
	)
	reason, err := s.Prompt(context.Background(), prompt("add a print"))
	if err != nil || reason != StopEndTurn {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	if !strings.Contains(string(got), "println(1)") {
		t.Errorf("file not edited: %q", got)
	}
	if h.text() != "Let me look.Done." {
		t.Errorf("text = %q", h.text())
	}
	if st := h.toolStatus(); st["c1"] != ToolCompleted || st["c2"] != ToolCompleted {
		t.Errorf("tool status = %v", st)
	}
	if h.askCount() != 1 {
		t.Errorf("asks = %d, want 1 (the edit)", h.askCount())
	}
	reqs := f.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("requests = %d", len(reqs))
	}
	if r, ok := toolResult(reqs, "c1"); !ok || !strings.Contains(r.Text, "func main() {}") {
		t.Errorf("read result = %+v", r)
	}
	// The edit's permission request carried the diff.
	ask := h.asks[0]
	if len(ask.ToolCall.Content) != 1 || ask.ToolCall.Content[0].Type != "diff" || !strings.Contains(*ask.ToolCall.Content[0].NewText, "println(1)") {
		t.Errorf("permission request content = %+v", ask.ToolCall.Content)
	}
	// The updates arrive in a sensible order: the tool call is announced
	// before it completes.
	var order []string
	for _, u := range h.snapshot() {
		if u.Tool != nil && u.Tool.ID == "c2" {
			order = append(order, string(u.Type)+":"+string(u.Tool.Status))
		}
	}
	if strings.Join(order, ",") != "tool_call:pending,tool_call_update:in_progress,tool_call_update:completed" {
		t.Errorf("c2 updates = %v", order)
	}
}

// Consecutive requests of a session share a byte-identical prefix: only
// what was appended differs (the moving cache breakpoint aside).
func TestHistoryIsByteStable(t *testing.T) {
	f := newFixture(t)
	s, _, _ := f.session(ModeCode, map[string]string{"a.txt": "alpha\n"})
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"a.txt"}`)}},
		llmtest.Reply{Text: []string{"ok"}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c2", "list_files", `{}`)}},
		llmtest.Reply{Text: []string{"ok again"}},
	)
	for _, p := range []string{"one", "two"} {
		if _, err := s.Prompt(context.Background(), prompt(p)); err != nil {
			t.Fatal(err)
		}
	}
	reqs := f.srv.Requests()
	msgs := func(r *llmtest.Request) []json.RawMessage {
		var body struct {
			Messages []json.RawMessage `json:"messages"`
			System   json.RawMessage   `json:"system"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		return body.Messages
	}
	strip := func(b json.RawMessage) string {
		return strings.ReplaceAll(string(b), `,"cache_control":{"type":"ephemeral"}`, "")
	}
	for i := 1; i < len(reqs); i++ {
		prev, cur := msgs(reqs[i-1]), msgs(reqs[i])
		if len(cur) <= len(prev) {
			t.Fatalf("request %d has %d messages, previous %d", i, len(cur), len(prev))
		}
		for j := range prev {
			if strip(prev[j]) != strip(cur[j]) {
				t.Errorf("request %d message %d changed:\n%s\n%s", i, j, prev[j], cur[j])
			}
		}
	}
}

// Read-only calls of one response run at the same time: each read waits
// until all of them have started, which only parallel execution allows.
func TestParallelReads(t *testing.T) {
	f := newFixture(t)
	s, h, _ := f.session(ModeCode, map[string]string{"a": "1", "b": "2", "c": "3"})
	var wg sync.WaitGroup
	wg.Add(3)
	all := make(chan struct{})
	go func() { wg.Wait(); close(all) }()
	h.readHook = func() error {
		wg.Done()
		select {
		case <-all:
			return nil
		case <-time.After(10 * time.Second):
			return errors.New("reads ran one after another")
		}
	}
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("r1", "read_file", `{"path":"a"}`), call("r2", "read_file", `{"path":"b"}`), call("r3", "read_file", `{"path":"c"}`)}},
		llmtest.Reply{Text: []string{"read"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("read all")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	for i, id := range []string{"r1", "r2", "r3"} {
		r, ok := toolResult(reqs, id)
		if !ok || r.IsError || !strings.Contains(r.Text, string(rune('1'+i))) {
			t.Errorf("%s result = %+v", id, r)
		}
	}
	// Results go back in call order.
	last := reqs[len(reqs)-1].Messages
	res := last[len(last)-1].Content
	if len(res) != 3 || res[0].ToolCallID != "r1" || res[2].ToolCallID != "r3" {
		t.Errorf("result order = %+v", res)
	}
}

func TestRejectedPermissionTellsTheModel(t *testing.T) {
	f := newFixture(t)
	s, h, dir := f.session(ModeCode, nil)
	h.answer = func(PermissionRequest) (Decision, error) { return Decision{Kind: RejectOnce}, nil }
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w1", "write_file", `{"path":"new.txt","content":"x"}`)}},
		llmtest.Reply{Text: []string{"understood"}},
	)
	reason, err := s.Prompt(context.Background(), prompt("write"))
	if err != nil || reason != StopEndTurn {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); err == nil {
		t.Error("the rejected file was written")
	}
	r, ok := toolResult(f.srv.Requests(), "w1")
	if !ok || !r.IsError || !strings.Contains(strings.ToLower(r.Text), "reject") {
		t.Errorf("model was told %+v", r)
	}
	// The editor showed the proposed diff when it asked; the failed call's
	// last update states the error and replaces that diff with an empty
	// one, so no client keeps showing the proposal as made.
	var last *ToolCall
	for _, u := range h.snapshot() {
		if u.Type == ToolCallUpdated && u.Tool.ID == "w1" {
			last = u.Tool
		}
	}
	if last == nil || last.Status != ToolFailed || len(last.Content) != 2 {
		t.Fatalf("last update of the rejected call = %+v", last)
	}
	if c := last.Content[0]; c.Content == nil || !strings.Contains(strings.ToLower(c.Content.Text), "reject") {
		t.Errorf("first content = %+v, want the error", c)
	}
	if d := last.Content[1]; d.Type != "diff" || d.Path != filepath.Join(dir, "new.txt") || d.OldText == nil || *d.OldText != "" || d.NewText == nil || *d.NewText != "" {
		t.Errorf("second content = %+v, want an empty diff of new.txt", d)
	}
}

func TestAlwaysAnswersAreRemembered(t *testing.T) {
	f := newFixture(t)
	s, h, _ := f.session(ModeCode, nil)
	h.answer = func(PermissionRequest) (Decision, error) { return Decision{Kind: AllowAlways}, nil }
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w1", "write_file", `{"path":"src/a.txt","content":"1"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w2", "edit_file", `{"path":"src/a.txt","old_string":"1","new_string":"2"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w3", "write_file", `{"path":"src/deep/b.txt","content":"3"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w4", "write_file", `{"path":"lib/c.txt","content":"4"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w5", "write_file", `{"path":"src/AGENTS.md","content":"5"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("write")); err != nil {
		t.Fatal(err)
	}
	// The first write asks and grants edits in src/; the edit and the
	// deeper write there are remembered; lib/ is outside the grant; the
	// AGENTS.md under src/ is protected and asks again.
	if h.askCount() != 3 {
		t.Fatalf("asks = %d, want 3", h.askCount())
	}
	var always []string
	for _, o := range h.asks[0].Options {
		if o.Kind == AllowAlways {
			always = append(always, o.Name)
		}
	}
	if len(always) != 1 || always[0] != "Always allow edits in src/ in this project" {
		t.Errorf("first ask offers %q", always)
	}
	if !strings.Contains(h.asks[1].ToolCall.Title, "lib/c.txt") {
		t.Errorf("second ask = %q, want lib/c.txt", h.asks[1].ToolCall.Title)
	}
	if !strings.Contains(h.asks[2].ToolCall.Title, "protected") {
		t.Errorf("third ask = %q, want the protected file", h.asks[2].ToolCall.Title)
	}
	for _, o := range h.asks[2].Options {
		if o.Kind == AllowAlways || o.Kind == RejectAlways {
			t.Errorf("the protected file offers %q, which would be remembered", o.Name)
		}
	}
}

func TestModes(t *testing.T) {
	t.Run("ask mode offers no edit tools", func(t *testing.T) {
		f := newFixture(t)
		s, _, _ := f.session(ModeAsk, nil)
		f.srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w1", "write_file", `{"path":"a","content":"1"}`)}}, llmtest.Reply{Text: []string{"ok"}})
		if _, err := s.Prompt(context.Background(), prompt("x")); err != nil {
			t.Fatal(err)
		}
		reqs := f.srv.Requests()
		for _, name := range reqs[0].Tools {
			if name == "write_file" || name == "edit_file" || name == "run_command" {
				t.Errorf("ask mode offered %s", name)
			}
		}
		if r, _ := toolResult(reqs, "w1"); !r.IsError || !strings.Contains(r.Text, "not available") {
			t.Errorf("a call to a hidden tool got %+v", r)
		}
	})
	t.Run("full-auto asks only for protected files", func(t *testing.T) {
		f := newFixture(t)
		s, h, dir := f.session(ModeFullAuto, nil)
		f.srv.Enqueue(
			llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("w1", "write_file", `{"path":"a.txt","content":"1"}`), call("w2", "write_file", `{"path":".git/config","content":"x"}`)}},
			llmtest.Reply{Text: []string{"ok"}},
		)
		if _, err := s.Prompt(context.Background(), prompt("x")); err != nil {
			t.Fatal(err)
		}
		if h.askCount() != 1 || !strings.Contains(h.asks[0].ToolCall.Title, "protected") {
			t.Errorf("asks = %+v", h.asks)
		}
		if _, err := os.Stat(filepath.Join(dir, "a.txt")); err != nil {
			t.Errorf("auto-approved write missing: %v", err)
		}
	})
	t.Run("SetMode sends current_mode_update", func(t *testing.T) {
		f := newFixture(t)
		s, h, _ := f.session(ModeCode, nil)
		if err := s.SetMode(ModeAutoEdit); err != nil {
			t.Fatal(err)
		}
		if err := s.SetMode("bogus"); err == nil {
			t.Error("SetMode(bogus) succeeded")
		}
		u := h.snapshot()
		if len(u) != 1 || u[0].Type != CurrentModeUpdate || u[0].ModeID != "auto-edit" {
			t.Errorf("updates = %+v", u)
		}
	})
}

func TestMaxTurnRequests(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxTurnRequests = 3 })
	s, _, _ := f.session(ModeCode, map[string]string{"a": "x"})
	f.srv.Handle(func(*llmtest.Request) llmtest.Reply {
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"a"}`}}}
	})
	reason, err := s.Prompt(context.Background(), prompt("loop"))
	if err != nil || reason != StopMaxTurnRequests {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	if n := len(f.srv.Requests()); n != 3 {
		t.Errorf("requests = %d, want 3", n)
	}
}

func TestStopReasons(t *testing.T) {
	for _, tt := range []struct {
		stop string
		want StopReason
	}{{"end_turn", StopEndTurn}, {"max_tokens", StopMaxTokens}, {"refusal", StopRefusal}} {
		f := newFixture(t)
		s, _, _ := f.session(ModeCode, nil)
		f.srv.Enqueue(llmtest.Reply{Text: []string{"x"}, Stop: tt.stop})
		if got, err := s.Prompt(context.Background(), prompt("x")); err != nil || got != tt.want {
			t.Errorf("stop %s: got %q, %v", tt.stop, got, err)
		}
	}
}

func TestProviderFailures(t *testing.T) {
	tests := []struct {
		name    string
		reply   llmtest.Reply
		wantErr string
	}{
		{"500 on every attempt", llmtest.Reply{Status: 500, Times: 4, Message: "overloaded"}, "HTTP 500"},
		{"401 names the key", llmtest.Reply{Status: 401, Message: "bad key"}, "ANTHROPIC_API_KEY"},
		{"stream cut mid-JSON twice", llmtest.Reply{Text: []string{"partial"}, CutAfter: 3}, "retried once"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			s, _, _ := f.session(ModeCode, nil)
			f.srv.Enqueue(tt.reply)
			if tt.reply.CutAfter > 0 {
				f.srv.Enqueue(tt.reply) // a cut stream is sent once more
			}
			_, err := s.Prompt(context.Background(), prompt("x"))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), "test-key") {
				t.Errorf("the key leaked into the error: %v", err)
			}
			if l, o := s.State(); l != Failed || o.Err == "" {
				t.Errorf("state = %s, %+v", l, o)
			}
			// The session stays usable.
			f.srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"fine"}} })
			if reason, err := s.Prompt(context.Background(), prompt("again")); err != nil || reason != StopEndTurn {
				t.Fatalf("next prompt = %q, %v", reason, err)
			}
			if l, o := s.State(); l != Idle || o.StopReason != StopEndTurn {
				t.Errorf("state after recovery = %s, %+v", l, o)
			}
		})
	}
}

func TestRetryThenSuccess(t *testing.T) {
	f := newFixture(t)
	s, h, _ := f.session(ModeCode, nil)
	f.srv.Enqueue(llmtest.Reply{Status: 429, Times: 2, RetryAfter: "0"}, llmtest.Reply{Text: []string{"hello"}})
	if reason, err := s.Prompt(context.Background(), prompt("x")); err != nil || reason != StopEndTurn {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	if h.text() != "hello" || len(f.srv.Requests()) != 3 {
		t.Errorf("text %q after %d requests", h.text(), len(f.srv.Requests()))
	}
}

func TestNoProviderConfigured(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.Provider = nil })
	s, _, _ := f.session(ModeCode, nil)
	_, err := s.Prompt(context.Background(), prompt("x"))
	for _, want := range []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "TANDEM_PROVIDER"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want it to name %s", err, want)
		}
	}
	// Slash commands need no model.
	if reason, err := s.Prompt(context.Background(), prompt("/mode ask")); err != nil || reason != StopEndTurn || s.Mode() != ModeAsk {
		t.Errorf("/mode without a model: %q, %v, mode %s", reason, err, s.Mode())
	}
}

func TestInvalidCwd(t *testing.T) {
	f := newFixture(t)
	for _, cwd := range []string{"relative", "/does/not/exist", "/etc/hostname"} {
		if _, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: cwd, Host: &testHost{}}); !errors.Is(err, ErrInvalidCwd) {
			t.Errorf("cwd %q: %v", cwd, err)
		}
	}
}
