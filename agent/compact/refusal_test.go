package compact_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/openai"
)

// Each server's refusal, as it sends it over real HTTP, says what its
// limit is, or how far over it the request was.
func TestRefusedReadsTheLimitFromEachServer(t *testing.T) {
	noWait := llm.Transport{Retry: llm.RetryPolicy{Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }}}
	for _, c := range []struct {
		name  string
		style llmtest.WindowStyle
		f     llmtest.Format
		want  func(size int) compact.Refusal
	}{
		{"anthropic", "", llmtest.Anthropic, func(n int) compact.Refusal { return compact.Refusal{Limit: 1000, Prompt: n} }},
		{"openai", "", llmtest.OpenAI, func(n int) compact.Refusal { return compact.Refusal{Limit: 1000, Prompt: n} }},
		{"vllm", llmtest.VLLM, llmtest.OpenAI, func(n int) compact.Refusal { return compact.Refusal{Limit: 1000, Prompt: n} }},
		{"llama.cpp", llmtest.LlamaCpp, llmtest.OpenAI, func(n int) compact.Refusal { return compact.Refusal{Limit: 1000, Prompt: n} }},
		{"ollama", llmtest.Ollama, llmtest.OpenAI, func(n int) compact.Refusal { return compact.Refusal{Over: n - 1000} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.LimitContext(c.style, 1000)
			var p llm.Provider = anthropic.New(anthropic.Options{BaseURL: srv.BaseURL(c.f), Transport: noWait})
			if c.f == llmtest.OpenAI {
				p = openai.New(openai.Options{BaseURL: srv.BaseURL(c.f), Transport: noWait})
			}
			req := &llm.Request{Model: "m", Messages: []llm.Message{llm.Text(llm.RoleUser, strings.Repeat("long text ", 1000))}}
			_, err := p.Stream(context.Background(), req, func(llm.Event) {})
			got, ok := compact.Refused(err)
			reqs := srv.Requests()
			if !ok || len(reqs) == 0 || !reqs[0].Refused {
				t.Fatalf("Refused(%v) = %v; requests %d", err, ok, len(reqs))
			}
			if want := c.want(reqs[0].Tokens()); got != want {
				t.Errorf("Refused(%v) = %+v, want %+v", err, got, want)
			}
			if b := got.Bound(reqs[0].Tokens()); b != 1000 {
				t.Errorf("Bound = %d, want 1000", b)
			}
		})
	}
}

// Wordings that state nothing leave the bound to the request's own size;
// other servers' wordings are read too.
func TestRefusedWordings(t *testing.T) {
	for _, c := range []struct {
		status int
		msg    string
		want   compact.Refusal
		bound  int // for a request tandem estimated at 5000
	}{
		{400, "This model's maximum context length is 65536 tokens. However, you requested 70000 tokens (66000 in the messages, 4000 in the completion).", compact.Refusal{Limit: 65536, Prompt: 66000}, 65536},
		{400, "This model's maximum context length is 4096 tokens. However, your request has 5000 input tokens. Please reduce the length of the input messages.", compact.Refusal{Limit: 4096, Prompt: 5000}, 4096},
		{400, "The decoder prompt (length 5000) is longer than the maximum model length of 4096. Make sure that `max_model_len` is no smaller than the number of text tokens.", compact.Refusal{Limit: 4096, Prompt: 5000}, 4096},
		{400, "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", compact.Refusal{Limit: 1048576, Prompt: 1200000}, 1048576},
		{400, "Trying to keep the first 6000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough.", compact.Refusal{Limit: 4096}, 4096},
		{400, "invalid_request_error: input length exceeds the context length", compact.Refusal{}, 5000},
		{413, "request_too_large: Request exceeds the maximum size", compact.Refusal{}, 5000},
		{500, "prompt too long; exceeded max context length by 310 tokens", compact.Refusal{Over: 310}, 4690},
	} {
		got, ok := compact.Refused(&llm.Error{Provider: "p", Status: c.status, Message: c.msg})
		if !ok || got != c.want || got.Bound(5000) != c.bound {
			t.Errorf("Refused(%d %q) = %+v, %v (bound %d), want %+v (bound %d)", c.status, c.msg, got, ok, got.Bound(5000), c.want, c.bound)
		}
	}
	if _, ok := compact.Refused(&llm.Error{Provider: "p", Status: 400, Message: "maximum of 4 images"}); ok {
		t.Error("an error that is not an overflow was read as one")
	}
}
