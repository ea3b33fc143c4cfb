package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/agent/llm/openai"
)

// windowed makes the fake server behave like a provider with a context
// window per model: a request counts one token per four bytes of its body,
// one over the window is refused with Anthropic's wording, and every
// response reports its size, as real providers do. Summary requests are
// answered with a summary; the rest by reply.
type windowed struct {
	windows   map[string]int
	overflows atomic.Int32
	summaries atomic.Int32
	largest   atomic.Int64 // the largest request that was served
}

func (w *windowed) serve(srv *llmtest.Server, reply func(*llmtest.Request) llmtest.Reply) {
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		n := len(r.Body) / 4
		if win := w.windows[r.Model]; win > 0 && n > win {
			w.overflows.Add(1)
			return llmtest.Reply{Status: 400, Message: fmt.Sprintf("prompt is too long: %d tokens > %d maximum", n, win)}
		}
		for {
			old := w.largest.Load()
			if int64(n) <= old || w.largest.CompareAndSwap(old, int64(n)) {
				break
			}
		}
		var rep llmtest.Reply
		if r.System == compact.SummarySystem {
			w.summaries.Add(1)
			rep = llmtest.Reply{Text: []string{fmt.Sprintf("## Goal and constraints\nSummary %d of the session.", w.summaries.Load())}}
		} else {
			rep = reply(r)
		}
		rep.Usage = &llm.Usage{InputTokens: n, OutputTokens: 20}
		return rep
	})
}

// readThenAnswer calls read_file on the prompt's file, then answers.
func readThenAnswer(r *llmtest.Request) llmtest.Reply {
	last := r.Messages[len(r.Messages)-1]
	if last.Content[0].Type == llm.PartToolResult {
		return llmtest.Reply{Text: []string{"Read it."}}
	}
	text := r.LastUserText()
	i := strings.LastIndex(text, "read ")
	if i < 0 {
		return llmtest.Reply{Text: []string{"ok"}}
	}
	file := strings.Fields(text[i+5:])[0]
	return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: fmt.Sprintf("c%d", r.N), Name: "read_file", Args: fmt.Sprintf(`{"path":%q}`, file)}}}
}

// bigFiles are files of about 6 KB each, 1,500 tokens: ten of them fill
// a 16k window.
func bigFiles(n int) map[string]string {
	files := map[string]string{}
	for i := range n {
		var b strings.Builder
		for j := 0; b.Len() < 6000; j++ {
			fmt.Fprintf(&b, "func f%d_%d() int { return %d } // some code in file %d\n", i, j, j, i)
		}
		files[fmt.Sprintf("big%d.go", i)] = b.String()
	}
	return files
}

func smallWindow(model string, tokens int) func(*Config) {
	return func(c *Config) {
		c.Model = model
		c.Windows = &models.Windows{Config: map[string]int{model: tokens}}
	}
}

// A working day in a 16k window: sixty prompts, each reading a 1,500-token
// file, never fail, and no request passes the window.
func TestLongSessionInASmallWindowNeverFails(t *testing.T) {
	f := newFixture(t, smallWindow("small-model", 16_000))
	w := &windowed{windows: map[string]int{"small-model": 16_000}}
	w.serve(f.srv, readThenAnswer)
	files := bigFiles(5)
	files["AGENTS.md"] = "ROOT-RULE: keep it short\n"
	s, _, _ := f.session(ModeCode, files)
	for i := range 60 {
		reason, err := s.Prompt(context.Background(), prompt(fmt.Sprintf("turn %d: read big%d.go", i, i%5)))
		if err != nil || reason != StopEndTurn {
			t.Fatalf("turn %d: %q, %v", i, reason, err)
		}
	}
	if n := w.overflows.Load(); n != 0 {
		t.Errorf("%d requests passed the window", n)
	}
	if w.summaries.Load() == 0 {
		t.Error("no compaction summarised anything in sixty turns")
	}
	// Every conversation request, before and after each compaction,
	// carries the instructions exactly once.
	for _, r := range f.srv.Requests() {
		if n := strings.Count(string(r.Body), "ROOT-RULE"); r.System != compact.SummarySystem && n != 1 {
			t.Fatalf("request %d carries the instructions %d times", r.N, n)
		}
	}
	if l := w.largest.Load(); l > 16_000 {
		t.Errorf("largest request %d tokens", l)
	}
	t.Logf("largest request %d tokens, %d summaries, %d requests", w.largest.Load(), w.summaries.Load(), len(f.srv.Requests()))
}

// /compact works on a session whose history alone is larger than the
// window: the model was switched to a smaller one. It summarises in pieces,
// and the next prompt goes through.
func TestCompactCommandOnASessionOverItsWindow(t *testing.T) {
	f := newFixture(t, func(c *Config) {
		c.Model = "big-model"
		c.Windows = &models.Windows{Config: map[string]int{"big-model": 200_000, "small-model": 16_000}}
	})
	w := &windowed{windows: map[string]int{"big-model": 200_000, "small-model": 16_000}}
	w.serve(f.srv, readThenAnswer)
	s, h, _ := f.session(ModeCode, bigFiles(5))
	for i := range 20 {
		if _, err := s.Prompt(context.Background(), prompt(fmt.Sprintf("turn %d: read big%d.go", i, i%5))); err != nil {
			t.Fatal(err)
		}
	}
	if w.summaries.Load() != 0 {
		t.Fatal("the big window compacted already")
	}
	if err := s.SetModel("small-model"); err != nil {
		t.Fatal(err)
	}
	before := len(f.srv.Requests())
	if reason, err := s.Prompt(context.Background(), prompt("/compact keep the file names")); err != nil || reason != StopEndTurn {
		t.Fatalf("/compact: %q, %v", reason, err)
	}
	var pieces int
	for _, r := range f.srv.Requests()[before:] {
		if r.System != compact.SummarySystem {
			t.Errorf("/compact sent a conversation request")
		}
		if !strings.Contains(r.LastUserText(), "keep in particular: keep the file names") {
			t.Errorf("summary request without the focus")
		}
		pieces++
	}
	if pieces < 2 {
		t.Errorf("%d summary requests, want pieces", pieces)
	}
	if n := w.overflows.Load(); n != 0 {
		t.Errorf("%d requests passed the window", n)
	}
	checkCompactionShown(t, h)
	if _, err := s.Prompt(context.Background(), prompt("now read big1.go")); err != nil {
		t.Fatalf("after /compact: %v", err)
	}
	if n := w.overflows.Load(); n != 0 {
		t.Errorf("%d requests passed the window after /compact", n)
	}
}

// checkCompactionShown checks the editor saw the compaction run and end
// (with what it did), then a usage_update.
func checkCompactionShown(t *testing.T, h *testHost) {
	t.Helper()
	var started, done bool
	var usageAfter bool
	for _, u := range h.snapshot() {
		c := u.Compaction
		switch {
		case u.Type == CompactionUpdated && c.Status == CompactionRunning && strings.HasPrefix(c.ID, "compact-"):
			started = true
		case started && u.Type == CompactionUpdated && c.Status == CompactionDone && strings.HasPrefix(c.Description, "Compacted the conversation"):
			done = true
		case done && u.Type == UsageUpdated:
			usageAfter = true
		}
	}
	if !started || !done || !usageAfter {
		t.Errorf("editor saw start %v, end %v, usage after %v", started, done, usageAfter)
	}
}

// A provider refusing the request as too long (its count is not ours)
// makes the session compact and retry once; the retried request succeeds.
func TestOverflowErrorCompactsAndRetries(t *testing.T) {
	f := newFixture(t)
	s, h, _ := f.session(ModeCode, bigFiles(3))
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "read_file", `{"path":"big0.go"}`)}},
		llmtest.Reply{Text: []string{"read"}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c2", "read_file", `{"path":"big1.go"}`)}},
		llmtest.Reply{Text: []string{"read"}},
	)
	for _, p := range []string{"read big0.go", "read big1.go"} {
		if _, err := s.Prompt(context.Background(), prompt(p)); err != nil {
			t.Fatal(err)
		}
	}
	f.srv.Enqueue(
		llmtest.Reply{Status: 400, Message: "prompt is too long: 210000 tokens > 200000 maximum"},
		llmtest.Reply{Text: []string{"the summary"}},
		llmtest.Reply{Text: []string{"answered after compaction"}},
	)
	reason, err := s.Prompt(context.Background(), prompt("what now?"))
	if err != nil || reason != StopEndTurn {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	reqs := f.srv.Requests()
	n := len(reqs)
	if reqs[n-2].System != compact.SummarySystem {
		t.Fatalf("the request before the retry is not a summary: %q", reqs[n-2].System)
	}
	retried := reqs[n-1]
	if !strings.Contains(retried.Messages[0].Content[len(retried.Messages[0].Content)-1].Text, "the summary") {
		t.Errorf("the retried request does not start from the summary: %+v", retried.Messages[0])
	}
	if retried.LastUserText() != "what now?" {
		t.Errorf("the retried request's prompt = %q", retried.LastUserText())
	}
	if !strings.Contains(h.text(), "answered after compaction") {
		t.Errorf("agent text = %q", h.text())
	}
	checkCompactionShown(t, h)
}

// A provider that still refuses after the compaction ends the turn with an
// error that says what to do; the session stays usable.
func TestOverflowThatPersistsEndsTheTurnAndTheSessionGoesOn(t *testing.T) {
	f := newFixture(t)
	s, _, _ := f.session(ModeCode, nil)
	f.srv.Enqueue(llmtest.Reply{Text: []string{"one"}})
	if _, err := s.Prompt(context.Background(), prompt("first")); err != nil {
		t.Fatal(err)
	}
	tooLong := llmtest.Reply{Status: 400, Message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."}
	f.srv.Enqueue(tooLong, llmtest.Reply{Text: []string{"summary"}}, tooLong)
	_, err := s.Prompt(context.Background(), prompt("second"))
	if err == nil || !strings.Contains(err.Error(), "/compact") || !strings.Contains(err.Error(), "maximum context length") {
		t.Fatalf("err = %v, want advice naming /compact and the provider's message", err)
	}
	f.srv.Enqueue(llmtest.Reply{Text: []string{"still here"}})
	if reason, err := s.Prompt(context.Background(), prompt("third")); err != nil || reason != StopEndTurn {
		t.Fatalf("the session did not survive: %q, %v", reason, err)
	}
	last := f.srv.Requests()[len(f.srv.Requests())-1]
	for i := 1; i < len(last.Messages); i++ {
		if last.Messages[i].Role == last.Messages[i-1].Role {
			t.Fatalf("messages %d and %d share a role: %+v", i-1, i, last.Messages)
		}
	}
}

// After a compaction the first request carries every instruction file the
// session had loaded exactly once, and its system prompt and tools are the
// same bytes as before.
func TestCompactionRestoresInstructionsOnceAndKeepsThePrefix(t *testing.T) {
	f := newFixture(t)
	s, _, _ := f.session(ModeCode, map[string]string{
		".git/HEAD":         "ref: refs/heads/main\n",
		"AGENTS.md":         "ROOT-RULE: use tabs\n",
		"pkg/sub/AGENTS.md": "SUB-RULE: no globals\n",
		"pkg/sub/x.go":      "package sub\n",
	})
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("r1", "read_file", `{"path":"pkg/sub/x.go"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("p1", "update_plan", `{"plan":[{"content":"PLAN-STEP one","status":"in_progress"}]}`)}},
		llmtest.Reply{Text: []string{"read"}},
		llmtest.Reply{Text: []string{"two"}},
	)
	for _, p := range []string{"look at x.go", "and then"} {
		if _, err := s.Prompt(context.Background(), prompt(p)); err != nil {
			t.Fatal(err)
		}
	}
	f.srv.Enqueue(llmtest.Reply{Text: []string{"SUMMARY"}}, llmtest.Reply{Text: []string{"after"}})
	if _, err := s.Prompt(context.Background(), prompt("/compact")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt(context.Background(), prompt("go on")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	before, after := reqs[len(reqs)-4], reqs[len(reqs)-1]
	if reqs[len(reqs)-2].System != compact.SummarySystem {
		t.Fatalf("no summary request before the last one")
	}
	// The plan survives either in the summary's head or in a kept
	// update_plan call: once, in the body as sent.
	text := string(after.Body)
	for _, rule := range []string{"ROOT-RULE", "SUB-RULE", "PLAN-STEP one", "SUMMARY"} {
		if n := strings.Count(text, rule); n != 1 {
			t.Errorf("%s appears %d times in the first request after compaction, want once:\n%s", rule, n, allText(after))
		}
	}
	for _, field := range []string{"system", "tools"} {
		b, a := bodyField(t, before.Body, field), bodyField(t, after.Body, field)
		if len(b) == 0 || !bytes.Equal(b, a) {
			t.Errorf("%s changed across the compaction:\nbefore %s\nafter  %s", field, b, a)
		}
	}
	// A later read of the nested directory adds nothing: it is loaded.
	f.srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("r2", "read_file", `{"path":"pkg/sub/x.go"}`)}}, llmtest.Reply{Text: []string{"ok"}})
	if _, err := s.Prompt(context.Background(), prompt("read it again")); err != nil {
		t.Fatal(err)
	}
	reqs = f.srv.Requests()
	if n := strings.Count(allText(reqs[len(reqs)-1]), "SUB-RULE"); n != 1 {
		t.Errorf("SUB-RULE appears %d times after a later read, want once", n)
	}
}

// bodyField returns the raw bytes of one top-level field of a request body.
func bodyField(t *testing.T, body []byte, name string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return m[name]
}

// An automatic compaction that fails (the summary request errs) does not
// fail the turn: the editor sees the compaction fail and the request goes
// out as it is, the threshold having left room below the window.
func TestFailedAutomaticCompactionLeavesTheRequestToTheProvider(t *testing.T) {
	f := newFixture(t, smallWindow("small-model", 16_000))
	var summaries atomic.Int32
	f.srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		if r.System == compact.SummarySystem {
			summaries.Add(1)
			return llmtest.Reply{Status: 500, Message: "the summariser is down"}
		}
		return llmtest.Reply{Text: []string{"ok"}}
	})
	s, h, _ := f.session(ModeCode, nil)
	long := strings.Repeat("a requirement the user typed at length. ", 200) // ~2k tokens, nothing to stub
	for i := range 6 {
		if reason, err := s.Prompt(context.Background(), prompt(fmt.Sprintf("%d %s", i, long))); err != nil || reason != StopEndTurn {
			t.Fatalf("turn %d: %q, %v", i, reason, err)
		}
	}
	if summaries.Load() == 0 {
		t.Fatal("no compaction was attempted")
	}
	failed := false
	for _, u := range h.snapshot() {
		failed = failed || u.Type == CompactionUpdated && u.Compaction.Status == CompactionFailed && u.Compaction.Error != ""
	}
	if !failed {
		t.Error("the editor did not see the compaction fail")
	}
}

// Through the OpenAI wire format, each server's own overflow body (as it
// sends it) compacts and retries: OpenAI's context_length_exceeded, vLLM's
// maximum context length, llama.cpp's exceed_context_size_error and
// Ollama's 500.
func TestOverflowBodiesOfOpenAICompatibleServers(t *testing.T) {
	for name, rep := range map[string]llmtest.Reply{
		"openai":    {Status: 400, Body: `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`},
		"vllm":      {Status: 400, Body: `{"object":"error","message":"This model's maximum context length is 8192 tokens. However, you requested 9120 tokens (8096 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`},
		"llama.cpp": {Status: 400, Body: `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":8192}}`},
		"ollama":    {Status: 500, Times: 4 /* every attempt of the default retry policy */, Body: `{"error":{"message":"prompt too long; exceeded max context length by 310 tokens","type":"api_error","param":null,"code":null}}`},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.agent.cfg.Provider = openai.New(openai.Options{BaseURL: f.srv.BaseURL(llmtest.OpenAI),
				Transport: llm.Transport{Retry: llm.RetryPolicy{Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}}})
			s, _, _ := f.session(ModeCode, nil)
			f.srv.Enqueue(llmtest.Reply{Text: []string{"one"}}, rep, llmtest.Reply{Text: []string{"summary"}}, llmtest.Reply{Text: []string{"two"}})
			for _, p := range []string{"first", "second"} {
				if reason, err := s.Prompt(context.Background(), prompt(p)); err != nil || reason != StopEndTurn {
					t.Fatalf("%s: %q, %v", p, reason, err)
				}
			}
			reqs := f.srv.Requests()
			if last := reqs[len(reqs)-1]; !strings.Contains(string(last.Body), "compacted to fit") || reqs[len(reqs)-2].System != compact.SummarySystem {
				t.Errorf("the retried request does not follow a summary")
			}
		})
	}
}
