package llmtest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
)

// ProviderConfig is what the conformance suite hands the constructor under
// test. The provider must use all of it: BaseURL, APIKey (sent in the
// format's header) and Transport (its Retry records the waits instead of
// sleeping).
type ProviderConfig struct {
	BaseURL   string
	APIKey    string
	Transport llm.Transport
}

const suiteKey = "sk-llmtest-SECRET-0123456789"

// RunProviderTests checks a Provider against the fake server speaking
// format: streaming, reasoning, tool calls, usage, stop reasons, retries,
// broken streams, cancellation, auth errors and byte-stable replay.
func RunProviderTests(t *testing.T, format Format, newProvider func(ProviderConfig) llm.Provider) {
	keyEnv := map[Format]string{Anthropic: "ANTHROPIC_API_KEY", OpenAI: "OPENAI_API_KEY", Responses: "OPENAI_API_KEY",
		AzureResponses: "AZURE_OPENAI_API_KEY", AzureChat: "AZURE_OPENAI_API_KEY",
		Bedrock: "AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY",
		Gemini:  "GEMINI_API_KEY", VertexGemini: "GOOGLE_APPLICATION_CREDENTIALS", VertexAnthropic: "GOOGLE_APPLICATION_CREDENTIALS"}[format]
	setup := func(t *testing.T) (*Server, llm.Provider, *sleeps) {
		t.Parallel()
		srv := NewServer(t)
		sl := &sleeps{}
		p := newProvider(ProviderConfig{BaseURL: srv.BaseURL(format), APIKey: suiteKey,
			Transport: llm.Transport{Retry: llm.RetryPolicy{MaxAttempts: 4, BaseDelay: time.Millisecond, MaxDelay: 10 * time.Second, Sleep: sl.sleep}}})
		return srv, p, sl
	}
	runPrefixTests(t, format, newProvider)

	t.Run("text", func(t *testing.T) {
		srv, p, _ := setup(t)
		srv.Enqueue(Reply{Text: []string{"Hel", "lo ", "wörld"}})
		rec, resp, err := run(t, context.Background(), p, request("hi"))
		must(t, err)
		if got := rec.texts(llm.EventText); strings.Join(got, "|") != "Hel|lo |wörld" {
			t.Errorf("text deltas = %q, want Hel|lo |wörld", got)
		}
		if len(resp.Message.Content) != 1 || resp.Message.Content[0].Text != "Hello wörld" || resp.Message.Role != llm.RoleAssistant {
			t.Errorf("message = %+v, want one text part %q", resp.Message, "Hello wörld")
		}
		if resp.StopReason != llm.StopEndTurn || rec.last().Type != llm.EventStop {
			t.Errorf("stop = %q, last event %+v; want end_turn and a final stop event", resp.StopReason, rec.last())
		}
		reqs := srv.Requests()
		if len(reqs) != 1 || reqs[0].System != "be brief" || reqs[0].Model != "test-model" || reqs[0].LastUserText() != "hi" {
			t.Fatalf("recorded %d requests, first %+v", len(reqs), reqs[0])
		}
		checkKeyHeader(t, format, reqs[0].Header, reqs[0].URL)
	})

	t.Run("reasoning replayed", func(t *testing.T) {
		srv, p, _ := setup(t)
		srv.Enqueue(Reply{Reasoning: []string{"think ", "hard"}, Text: []string{"ok"}}, Reply{Text: []string{"again"}})
		req := request("q")
		rec, resp, err := run(t, context.Background(), p, req)
		must(t, err)
		if got := strings.Join(rec.texts(llm.EventReasoning), "|"); got != "think |hard" {
			t.Errorf("reasoning deltas = %q", got)
		}
		th := parts(resp.Message, llm.PartThinking)
		if len(th) != 1 || th[0].Text != "think hard" {
			t.Fatalf("thinking parts = %+v, want one with the reasoning", th)
		}
		req.Messages = append(req.Messages, resp.Message, llm.Text(llm.RoleUser, "more"))
		_, _, err = run(t, context.Background(), p, req)
		must(t, err)
		sent := parts(srv.Requests()[1].Messages[1], llm.PartThinking)
		if len(sent) != 1 || sent[0].Text != "think hard" || sent[0].Signature() != th[0].Signature() {
			t.Errorf("replayed thinking = %+v, want %+v", sent, th[0])
		}
	})

	t.Run("tool call split into deltas", func(t *testing.T) {
		srv, p, _ := setup(t)
		args := `{"path":"dir/ä.go","limit":10}`
		srv.Enqueue(Reply{Text: []string{"Reading."}, ToolCalls: []ToolCall{{ID: "tc_1", Name: "read_file", Args: args, Split: 4}}})
		rec, resp, err := run(t, context.Background(), p, request("read"))
		must(t, err)
		if got := strings.Join(rec.texts(llm.EventToolCallDelta), ""); got != args {
			t.Errorf("argument deltas join to %q, want %q", got, args)
		}
		// Gemini sends each call whole: one delta of all its arguments.
		if n, want := len(rec.texts(llm.EventToolCallDelta)), map[bool]int{false: 4, true: 1}[googleFormat(format)]; n != want {
			t.Errorf("%d argument deltas, want %d", n, want)
		}
		start, end := rec.first(llm.EventToolCallStart), rec.first(llm.EventToolCallEnd)
		if start == nil || start.ToolCallID != "tc_1" || start.ToolName != "read_file" || end == nil || !jsonEqual(end.Input, args) {
			t.Errorf("start %+v end %+v", start, end)
		}
		calls := resp.ToolCalls()
		if resp.StopReason != llm.StopToolUse || len(calls) != 1 || calls[0].ToolCallID != "tc_1" || !jsonEqual(calls[0].Input, args) {
			t.Errorf("stop %q calls %+v", resp.StopReason, calls)
		}
	})

	t.Run("multiple tool calls", func(t *testing.T) {
		srv, p, _ := setup(t)
		srv.Enqueue(Reply{ToolCalls: []ToolCall{
			{ID: "a", Name: "list_files", Args: `{"path":"."}`, Split: 2},
			{ID: "b", Name: "read_file", Args: `{"path":"x"}`, Split: 3},
			{ID: "c", Name: "search_files", Args: ``},
		}})
		rec, resp, err := run(t, context.Background(), p, request("go"))
		must(t, err)
		calls := resp.ToolCalls()
		want := []struct{ id, name, args string }{{"a", "list_files", `{"path":"."}`}, {"b", "read_file", `{"path":"x"}`}, {"c", "search_files", `{}`}}
		if len(calls) != len(want) {
			t.Fatalf("%d calls, want %d: %+v", len(calls), len(want), calls)
		}
		for i, w := range want {
			if calls[i].ToolCallID != w.id || calls[i].ToolName != w.name || !jsonEqual(calls[i].Input, w.args) {
				t.Errorf("call %d = %s %s %s, want %+v", i, calls[i].ToolCallID, calls[i].ToolName, calls[i].Input, w)
			}
		}
		var ends []string
		for _, e := range rec.of(llm.EventToolCallEnd) {
			ends = append(ends, e.ToolCallID)
		}
		if strings.Join(ends, ",") != "a,b,c" {
			t.Errorf("tool_call_end order %v, want a,b,c", ends)
		}
	})

	t.Run("usage", func(t *testing.T) {
		srv, p, _ := setup(t)
		want := llm.Usage{InputTokens: 123, OutputTokens: 45, CacheReadTokens: 67}
		// Each wire format carries what its API reports: Anthropic's and
		// Bedrock's cache writes, OpenAI's reasoning_tokens.
		if anthropicStream(format) || format == Bedrock {
			want.CacheWriteTokens = 8
		} else {
			want.ReasoningTokens = 30
		}
		srv.Enqueue(Reply{Text: []string{"x"}, Usage: &want})
		rec, resp, err := run(t, context.Background(), p, request("u"))
		must(t, err)
		if resp.Usage != want {
			t.Errorf("usage = %+v, want %+v", resp.Usage, want)
		}
		if u := rec.first(llm.EventUsage); u == nil || u.Usage != want {
			t.Errorf("usage event = %+v, want %+v", u, want)
		}
	})

	t.Run("stop reasons", func(t *testing.T) {
		srv, p, _ := setup(t)
		for _, stop := range []llm.StopReason{llm.StopEndTurn, llm.StopMaxTokens, llm.StopRefusal} {
			srv.Enqueue(Reply{Text: []string{"x"}, Stop: string(stop)})
			_, resp, err := run(t, context.Background(), p, request("s"))
			must(t, err)
			if resp.StopReason != stop {
				t.Errorf("stop = %q, want %q", resp.StopReason, stop)
			}
		}
	})

	t.Run("429 then success honours Retry-After", func(t *testing.T) {
		srv, p, sl := setup(t)
		date := time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat)
		srv.Enqueue(Reply{Status: 429, RetryAfter: "2", Message: "slow down"},
			Reply{Status: 503, RetryAfter: date},
			Reply{Status: 529, Message: "overloaded"},
			Reply{Text: []string{"fine"}})
		_, resp, err := run(t, context.Background(), p, request("r"))
		must(t, err)
		if resp.Message.Content[0].Text != "fine" || len(srv.Requests()) != 4 {
			t.Fatalf("got %+v after %d requests, want fine after 4", resp.Message, len(srv.Requests()))
		}
		waits := sl.get()
		if len(waits) != 3 || waits[0] != 2*time.Second || waits[1] < time.Second || waits[1] > 3*time.Second || waits[2] > 10*time.Second {
			t.Errorf("waits = %v, want [2s, ~3s (HTTP date), backoff]", waits)
		}
	})

	t.Run("500 forever", func(t *testing.T) {
		srv, p, _ := setup(t)
		srv.Enqueue(Reply{Status: 500, Times: -1, Message: "the server broke"})
		_, _, err := run(t, context.Background(), p, request("x"))
		e := asError(t, err)
		if e.Status != 500 || e.Provider != p.Name() || !strings.Contains(e.Error(), "the server broke") || !strings.Contains(e.Error(), "500") {
			t.Errorf("error = %q (%+v), want provider, status 500 and the message", e, e)
		}
		if n := len(srv.Requests()); n != 4 {
			t.Errorf("%d attempts, want 4 (MaxAttempts)", n)
		}
	})

	t.Run("400 is not retried", func(t *testing.T) {
		srv, p, _ := setup(t)
		srv.Enqueue(Reply{Status: 400, Times: -1, Message: "prompt is too long"})
		_, _, err := run(t, context.Background(), p, request("x"))
		if e := asError(t, err); e.Status != 400 || !strings.Contains(e.Message, "prompt is too long") {
			t.Errorf("error = %v", e)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d attempts, want 1", n)
		}
	})

	t.Run("401 names the key variable", func(t *testing.T) {
		srv, p, _ := setup(t)
		srv.Enqueue(Reply{Status: 401, Message: "invalid api key " + suiteKey})
		_, _, err := run(t, context.Background(), p, request("x"))
		e := asError(t, err)
		if e.Status != 401 || e.KeyEnv != keyEnv || !strings.Contains(err.Error(), keyEnv) {
			t.Errorf("error = %q (%+v), want 401 naming %s", err, e, keyEnv)
		}
		if strings.Contains(err.Error(), suiteKey) {
			t.Errorf("error leaks the key: %q", err)
		}
		if len(srv.Requests()) != 1 {
			t.Errorf("401 was retried")
		}
	})

	t.Run("stream cut mid-JSON twice", func(t *testing.T) {
		srv, p, _ := setup(t)
		srv.Enqueue(Reply{Text: []string{"a", "b", "c", "d"}, CutAfter: 3})
		srv.Enqueue(Reply{Text: []string{"a", "b", "c", "d"}, CutAfter: 3})
		_, _, err := run(t, context.Background(), p, request("x"))
		e := asError(t, err)
		if e.Status != 0 || e.Provider != p.Name() || !strings.Contains(e.Message, "retried once") {
			t.Errorf("error = %+v, want a stream error saying it was retried once", e)
		}
		if n := len(srv.Requests()); n != 2 {
			t.Errorf("%d requests, want the cut stream sent exactly once more", n)
		}
	})

	t.Run("stream cut once is retried", func(t *testing.T) {
		srv, p, _ := setup(t)
		srv.Enqueue(Reply{Text: []string{"a", "b", "c", "d"}, CutAfter: 3})
		srv.Enqueue(Reply{Text: []string{"whole"}})
		_, resp, err := run(t, context.Background(), p, request("x"))
		if err != nil {
			t.Fatalf("error = %v, want the retry to succeed", err)
		}
		if got := resp.Message.Content[len(resp.Message.Content)-1].Text; got != "whole" {
			t.Errorf("reply = %q, want the second attempt's", got)
		}
		if n := len(srv.Requests()); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
	})

	t.Run("EOF without end of stream", func(t *testing.T) {
		srv, p, _ := setup(t)
		srv.Enqueue(Reply{Text: []string{"a"}, NoFinish: true})
		srv.Enqueue(Reply{Text: []string{"a"}, NoFinish: true})
		_, _, err := run(t, context.Background(), p, request("x"))
		asError(t, err)
		if n := len(srv.Requests()); n != 2 {
			t.Errorf("%d requests, want a stream without a stop reason retried once", n)
		}
	})

	t.Run("error event mid-stream", func(t *testing.T) {
		srv, p, _ := setup(t)
		srv.Enqueue(Reply{Text: []string{"a"}, StreamError: "overloaded right now"})
		_, _, err := run(t, context.Background(), p, request("x"))
		if e := asError(t, err); !strings.Contains(e.Message, "overloaded right now") {
			t.Errorf("error = %v, want the server's message", e)
		}
	})

	t.Run("error event echoing the key", func(t *testing.T) {
		srv, p, _ := setup(t)
		const other = "sk-proj-shortOTHER99" // not the provider's: caught by its shape
		srv.Enqueue(Reply{Text: []string{"a"}, StreamError: "bad key " + suiteKey + ", also " + other})
		_, _, err := run(t, context.Background(), p, request("x"))
		e := asError(t, err)
		for _, msg := range []string{e.Message, err.Error()} {
			if strings.Contains(msg, "SECRET") || strings.Contains(msg, "OTHER99") || !strings.Contains(msg, "bad key [redacted]") {
				t.Errorf("error = %q, want the keys masked", msg)
			}
		}
	})

	t.Run("cancel mid-stream", func(t *testing.T) {
		srv, p, _ := setup(t)
		srv.Enqueue(Reply{Text: []string{"partial"}, Hang: true})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		start := time.Now()
		_, err := p.Stream(ctx, request("x"), func(e llm.Event) {
			if e.Type == llm.EventText {
				cancel()
			}
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("cancel took %v", d)
		}
	})

	t.Run("stalled stream fails after the idle timeout", func(t *testing.T) {
		srv := NewServer(t)
		t.Parallel()
		srv.Enqueue(Reply{Text: []string{"partial"}, Hang: true}, Reply{Text: []string{"again"}})
		p := newProvider(ProviderConfig{BaseURL: srv.BaseURL(format), APIKey: suiteKey, Transport: llm.Transport{IdleTimeout: 300 * time.Millisecond}})
		start := time.Now()
		rec, _, err := run(t, context.Background(), p, request("x"))
		var stalled *llm.StalledError
		if e := asError(t, err); !errors.As(err, &stalled) || !strings.Contains(e.Message, "sent nothing for 300ms") {
			t.Fatalf("err = %v, want a stall after 300ms", err)
		}
		if d := time.Since(start); d < 300*time.Millisecond || d > 5*time.Second {
			t.Errorf("stall reported after %v", d)
		}
		if got := rec.texts(llm.EventText); strings.Join(got, "") != "partial" {
			t.Errorf("text before the stall = %q", got)
		}
		// The provider is not left broken: the next request streams.
		if _, resp, err := run(t, context.Background(), p, request("y")); err != nil || resp.Message.Content[0].Text != "again" {
			t.Errorf("after a stall: %v %+v", err, resp)
		}
	})

	t.Run("cancel while waiting to retry", func(t *testing.T) {
		srv := NewServer(t)
		t.Parallel()
		srv.Enqueue(Reply{Status: 429, Times: -1, RetryAfter: "5"})
		p := newProvider(ProviderConfig{BaseURL: srv.BaseURL(format), APIKey: suiteKey, Transport: llm.Transport{Retry: llm.RetryPolicy{MaxAttempts: 4}}})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := p.Stream(ctx, request("x"), func(llm.Event) {})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want the context's error", err)
		}
	})

	t.Run("history replays byte-identical", func(t *testing.T) {
		srv, p, _ := setup(t)
		srv.Enqueue(
			Reply{Reasoning: []string{"plan"}, Text: []string{"Looking."}, ToolCalls: []ToolCall{{ID: "t1", Name: "read_file", Args: `{"path":"a.go"}`, Split: 2}}},
			Reply{ToolCalls: []ToolCall{{ID: "t2", Name: "search_files", Args: `{"pattern":"<T>&"}`}, {ID: "t3", Name: "list_files", Args: `{}`}}},
			Reply{Text: []string{"Done."}},
		)
		req := request("fix the bug")
		req.Tools = []llm.ToolSpec{{Name: "read_file", Description: "Read a file.", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}
		for i := 0; i < 3; i++ {
			_, resp, err := run(t, context.Background(), p, req)
			must(t, err)
			req.Messages = append(req.Messages, resp.Message)
			var results []llm.Part
			for _, c := range resp.ToolCalls() {
				results = append(results, llm.Part{Type: llm.PartToolResult, ToolCallID: c.ToolCallID, Text: "result of " + c.ToolName, IsError: c.ToolName == "list_files"})
			}
			if len(results) > 0 {
				req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Content: results})
			}
		}
		reqs := srv.Requests()
		for i := 1; i < len(reqs); i++ {
			if err := AppendOnly(format, reqs[i-1].Body, reqs[i].Body); err != nil {
				t.Errorf("request %d -> %d: %v", i-1, i, err)
			}
		}
		last := reqs[2].Messages
		// OpenAI's tool messages have no error flag; the provider says so in the text.
		if len(last) != 5 || last[4].Content[0].Type != llm.PartToolResult ||
			!(last[4].Content[1].IsError || strings.HasPrefix(last[4].Content[1].Text, "Error: ")) {
			t.Errorf("third request history = %+v", last)
		}
	})
}

// AppendOnly checks that next extends prev: prev's body minus its closing
// "]}" (messages is the last field) must be a byte prefix of next, followed
// by ",". For Anthropic, the cache_control markers inside the messages
// array are removed from both bodies first, because the breakpoint moves
// to the newest message on every request; markers on system and tools
// stay and must not change.
func AppendOnly(f Format, prev, next []byte) error {
	switch {
	case anthropicStream(f):
		prev, next = stripMessageCacheMarks(prev, cacheMark), stripMessageCacheMarks(next, cacheMark)
	case f == Bedrock:
		prev, next = stripMessageCacheMarks(prev, cachePointMark), stripMessageCacheMarks(next, cachePointMark)
	}
	head, ok := strings.CutSuffix(string(prev), "]}")
	if !ok {
		return errors.New("previous body does not end with the messages array")
	}
	if !strings.HasPrefix(string(next), head) {
		i := 0
		for i < len(head) && i < len(next) && head[i] == next[i] {
			i++
		}
		lo := max(i-60, 0)
		return errors.New("bodies differ at byte " + strconv.Itoa(i) + ": prev …" + head[lo:min(i+60, len(head))] + "… next …" + string(next[lo:min(i+60, len(next))]) + "…")
	}
	if rest := string(next)[len(head):]; !strings.HasPrefix(rest, ",") {
		return errors.New("next body does not append messages: continues with " + rest[:min(len(rest), 40)])
	}
	return nil
}

// The moving cache breakpoints inside the messages: Anthropic's marker,
// Bedrock's cachePoint block.
const (
	cacheMark      = `,"cache_control":{"type":"ephemeral"}`
	cachePointMark = `,{"cachePoint":{"type":"default"}}`
)

func stripMessageCacheMarks(b []byte, mark string) []byte {
	s := string(b)
	i := strings.Index(s, `"messages":[`)
	if i < 0 {
		return b
	}
	return []byte(s[:i] + strings.ReplaceAll(s[i:], mark, ""))
}

func request(user string) *llm.Request {
	return &llm.Request{Model: "test-model", System: "be brief", MaxTokens: 1000, Messages: []llm.Message{llm.Text(llm.RoleUser, user)}}
}

func checkKeyHeader(t *testing.T, f Format, h http.Header, url string) {
	t.Helper()
	if strings.Contains(url, suiteKey) {
		t.Errorf("the key is in the URL %s", url)
	}
	switch f {
	case Gemini:
		if h.Get("X-Goog-Api-Key") != suiteKey || h.Get("Authorization") != "" {
			t.Errorf("headers x-goog-api-key=%q authorization=%q", h.Get("X-Goog-Api-Key"), h.Get("Authorization"))
		}
		return
	case Bedrock:
		// The server checked the signature; the request names the key.
		if a := h.Get("Authorization"); !strings.HasPrefix(a, "AWS4-HMAC-SHA256 Credential="+AWSAccessKeyID+"/") || strings.Contains(a, suiteKey) {
			t.Errorf("Authorization = %q, want a SigV4 signature by %s", a, AWSAccessKeyID)
		}
		return
	case AzureResponses, AzureChat:
		if h.Get("Api-Key") != suiteKey || h.Get("Authorization") != "" {
			t.Errorf("headers api-key=%q authorization=%q, want the key in api-key alone", h.Get("Api-Key"), h.Get("Authorization"))
		}
		return
	}
	if f == Anthropic {
		if h.Get("X-Api-Key") != suiteKey || h.Get("Anthropic-Version") == "" {
			t.Errorf("headers x-api-key=%q anthropic-version=%q", h.Get("X-Api-Key"), h.Get("Anthropic-Version"))
		}
		return
	}
	if h.Get("Authorization") != "Bearer "+suiteKey {
		t.Errorf("Authorization = %q, want a Bearer token", h.Get("Authorization"))
	}
}

type sleeps struct {
	mu sync.Mutex // guards d
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) get() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}
