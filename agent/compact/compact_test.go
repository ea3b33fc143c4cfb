package compact

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
)

// count is a byte-based estimate, like the estimator's default.
func count(m llm.Message) int {
	n := 4
	for _, p := range m.Content {
		n += (len(p.Text) + len(p.Input)) / 4
	}
	return n
}

func textTokens(s string) int { return len(s) / 4 }

// exchange is one prompt with one tool call answered by output bytes of
// output, then the model's reply.
func exchange(i int, tool, args string, output int) []llm.Message {
	id := fmt.Sprintf("c%d", i)
	return []llm.Message{
		llm.Text(llm.RoleUser, fmt.Sprintf("request %d", i)),
		{Role: llm.RoleAssistant, Content: []llm.Part{{Type: llm.PartToolUse, ToolCallID: id, ToolName: tool, Input: json.RawMessage(args)}}},
		{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartToolResult, ToolCallID: id, ToolName: tool, Text: strings.Repeat("x", output)}}},
		llm.Text(llm.RoleAssistant, fmt.Sprintf("answer %d", i)),
	}
}

func history(n, output int) []llm.Message {
	var h []llm.Message
	for i := range n {
		h = append(h, exchange(i, "read_file", fmt.Sprintf(`{"path":"f%d.go"}`, i), output)...)
	}
	return h
}

// checkPairs fails unless h starts with a user message, alternates roles,
// and answers every tool call in the next message.
func checkPairs(t *testing.T, h []llm.Message) {
	t.Helper()
	if len(h) == 0 || h[0].Role != llm.RoleUser {
		t.Fatalf("history does not start with a user message: %+v", h)
	}
	for i, m := range h {
		if i > 0 && h[i-1].Role == m.Role {
			t.Fatalf("messages %d and %d are both %s", i-1, i, m.Role)
		}
		for _, p := range m.Content {
			if p.Type != llm.PartToolUse {
				continue
			}
			found := false
			if i+1 < len(h) {
				for _, r := range h[i+1].Content {
					found = found || (r.Type == llm.PartToolResult && r.ToolCallID == p.ToolCallID)
				}
			}
			if !found {
				t.Fatalf("tool call %s in message %d has no result after it", p.ToolCallID, i)
			}
		}
	}
}

func options(target, keep int, summarize func(ctx context.Context, system, user string) (string, error)) Options {
	return Options{Target: target, Keep: keep, MessageTokens: count, TextTokens: textTokens, PieceTokens: 4000, Summarize: summarize}
}

func noModel(t *testing.T) func(context.Context, string, string) (string, error) {
	return func(context.Context, string, string) (string, error) {
		t.Error("the model was asked for a summary; stubbing was enough")
		return "", nil
	}
}

func TestStubbingAloneWhenItIsEnough(t *testing.T) {
	h := history(10, 4000) // ~10k tokens, nearly all tool output
	orig := h[2].Content[0].Text
	r, err := Compact(context.Background(), h, options(4000, 1000, noModel(t)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Summarized != 0 || r.Stubbed == 0 || r.After > 4000 || r.Before <= r.After {
		t.Fatalf("result %+v, want stubs only and at most 4000 tokens", r)
	}
	if h[2].Content[0].Text != orig {
		t.Error("the caller's history was changed")
	}
	first := r.History[2].Content[0].Text
	if !strings.HasPrefix(first, StubPrefix) || !strings.Contains(first, `read_file {"path":"f0.go"}`) || !strings.Contains(first, "read the file again") {
		t.Errorf("stub = %q", first)
	}
	// Oldest first: the newest output survives.
	if last := r.History[len(r.History)-2].Content[0].Text; strings.HasPrefix(last, StubPrefix) {
		t.Errorf("the newest output was stubbed while older ones sufficed")
	}
	checkPairs(t, r.History)
}

// A stubbed output loses its images in the copy only: the copy's parts
// share their rare fields with the caller's, which must keep theirs.
func TestStubbingLeavesTheCallersImages(t *testing.T) {
	h := history(10, 4000)
	h[2].Content[0].Rare().Images = []llm.Part{llm.Image("image/png", "iVBORw0KGgo=")}
	r, err := Compact(context.Background(), h, options(4000, 1000, noModel(t)))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.History[2].Content[0]; !strings.HasPrefix(got.Text, StubPrefix) || len(got.Images()) != 0 {
		t.Errorf("stubbed result %q keeps %d images", got.Text, len(got.Images()))
	}
	if imgs := h[2].Content[0].Images(); len(imgs) != 1 || imgs[0].Data() != "iVBORw0KGgo=" {
		t.Errorf("the caller's result has images %+v after compaction, want its one", imgs)
	}
}

func TestSummaryKeepsRecentTurnsAndFacts(t *testing.T) {
	h := history(6, 400)
	plan := `{"plan":[{"content":"write the parser","status":"in_progress"}]}`
	h = append(h, exchange(6, "update_plan", plan, 10)...)
	h = append(h, exchange(7, "run_command", `{"command":"go test ./..."}`, 400)...)
	// The turn in flight: a prompt, a call, its result, not yet answered.
	h = append(h, exchange(8, "edit_file", `{"path":"main.go","old_string":"a","new_string":"b"}`, 50)[:3]...)
	var asked []string
	o := options(100_000, 60, func(_ context.Context, system, user string) (string, error) {
		if system != SummarySystem {
			t.Errorf("system = %q", system)
		}
		asked = append(asked, user)
		return "SUMMARY-TEXT", nil
	})
	o.Force, o.Focus = true, "the parser"
	r, err := Compact(context.Background(), h, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 1 || !strings.Contains(asked[0], "f0.go") || !strings.Contains(asked[0], "keep in particular: the parser") {
		t.Fatalf("summary requests: %q", asked)
	}
	headText := r.History[0].Content[0].Text
	for _, want := range []string{HeadPrefix, "SUMMARY-TEXT", "read_file: f0.go", "- [in_progress] write the parser", "request 7", "ran (latest last):\n- go test ./..."} {
		if !strings.Contains(headText, want) {
			t.Errorf("head lacks %q:\n%s", want, headText)
		}
	}
	// The last exchange stays verbatim, call and result together.
	n := len(r.History)
	if r.History[n-1].Content[0].ToolCallID != "c8" || r.History[n-2].Content[0].ToolName != "edit_file" {
		t.Errorf("tail = %+v", r.History[n-2:])
	}
	if r.Summarized == 0 || r.Summarized >= len(h) || r.Stubbed != 0 {
		t.Errorf("summarized %d of %d messages, stubbed %d (nothing was over the target)", r.Summarized, len(h), r.Stubbed)
	}
	checkPairs(t, r.History)
}

func TestSummaryInPiecesWhenTheHistoryIsLargerThanTheWindow(t *testing.T) {
	h := history(40, 5000) // ~50k tokens; a piece may carry 4000
	var sizes []int
	overflowed := false
	o := options(3000, 500, func(_ context.Context, _, user string) (string, error) {
		if !overflowed && len(sizes) == 2 {
			// The provider counts differently: the piece must be split.
			overflowed = true
			return "", &llm.Error{Provider: "anthropic", Status: 400, Message: "invalid_request_error: prompt is too long: 9000 tokens > 8192 maximum"}
		}
		sizes = append(sizes, textTokens(user))
		return fmt.Sprintf("summary after %d pieces", len(sizes)), nil
	})
	o.Force = true
	r, err := Compact(context.Background(), h, o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Pieces < 5 || r.Pieces != len(sizes) {
		t.Errorf("%d pieces (%d requests), want several", r.Pieces, len(sizes))
	}
	for i, n := range sizes {
		if n > 4000+600 { // a piece plus the running summary and framing
			t.Errorf("summary request %d carried %d tokens", i, n)
		}
	}
	if r.After > 3000 {
		t.Errorf("after = %d tokens, want at most 3000", r.After)
	}
	if !strings.Contains(r.History[0].Content[0].Text, fmt.Sprintf("summary after %d pieces", len(sizes))) {
		t.Errorf("head does not carry the last summary: %q", r.History[0].Content[0].Text)
	}
	checkPairs(t, r.History)
}

func TestReinjectedPartsAreDropped(t *testing.T) {
	h := []llm.Message{{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartText, Text: "<rules>"}, {Type: llm.PartText, Text: "first"}}}}
	h = append(h, llm.Text(llm.RoleAssistant, "one"))
	h = append(h, exchange(1, "read_file", `{"path":"a"}`, 10)...)
	h[4].Content = append(h[4].Content, llm.Part{Type: llm.PartText, Text: "<rules>"})
	o := options(10_000, 20, func(context.Context, string, string) (string, error) { return "S", nil })
	o.Force = true
	o.Reinjected = func(p llm.Part) bool { return p.Text == "<rules>" }
	r, err := Compact(context.Background(), h, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range r.History {
		for _, p := range m.Content {
			if p.Text == "<rules>" {
				t.Fatalf("a re-injected part survived: %+v", r.History)
			}
		}
	}
	checkPairs(t, r.History)
}

func TestNothingToCompact(t *testing.T) {
	h := []llm.Message{llm.Text(llm.RoleUser, "hi")}
	if _, err := Compact(context.Background(), h, options(1, 1, noModel(t))); err != ErrNothingToCompact {
		t.Errorf("err = %v, want ErrNothingToCompact", err)
	}
}

func TestIsOverflow(t *testing.T) {
	for _, c := range []struct {
		status int
		msg    string
		want   bool
	}{
		{400, "invalid_request_error: prompt is too long: 215000 tokens > 200000 maximum", true},
		{400, "invalid_request_error: This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.", true},
		{400, "context_length_exceeded", true},
		{400, "the request exceeds the available context size, try increasing it", true},         // llama.cpp
		{400, "exceed_context_size_error: the request exceeds the available context size", true}, // llama.cpp, typed
		{400, "input length exceeds the context length", true},                                   // Ollama
		{500, "prompt too long; exceeded max context length by 12 tokens", true},                 // Ollama answers 500
		{500, "internal error", false},
		{400, "This model's maximum context length is 8192 tokens and your request has 9000 input tokens", true}, // vLLM
		{413, "request_too_large", true},
		{400, "invalid_request_error: messages: roles must alternate", false},
		{429, "rate limited", false},
	} {
		err := fmt.Errorf("wrapped: %w", &llm.Error{Provider: "p", Status: c.status, Message: c.msg})
		if got := IsOverflow(err); got != c.want {
			t.Errorf("IsOverflow(%d %q) = %v, want %v", c.status, c.msg, got, c.want)
		}
	}
	if IsOverflow(&llm.Error{Provider: "p", Message: "stream broke: prompt is too long"}) {
		t.Error("a broken stream counted as an overflow")
	}
}
