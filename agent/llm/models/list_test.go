package models

import (
	"context"
	"slices"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

func TestList(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ServeModels("gpt-5", "text-embedding-3-small", "gpt-4.1", "tts-1", "whisper-1")
	ids, err := List(context.Background(), nil, "openai", srv.BaseURL(llmtest.OpenAI), "sk-o")
	if err != nil || !slices.Equal(ids, []string{"gpt-5", "gpt-4.1"}) {
		t.Errorf("openai: %v, %v", ids, err)
	}
	ids, err = List(context.Background(), nil, "anthropic", srv.BaseURL(llmtest.Anthropic), "sk-a")
	if err != nil || len(ids) != 2 {
		t.Errorf("anthropic: %v, %v", ids, err)
	}
	h := srv.ModelsHeaders()
	if len(h) != 2 || h[0].Get("Authorization") != "Bearer sk-o" || h[1].Get("x-api-key") != "sk-a" ||
		h[1].Get("anthropic-version") == "" || h[1].Get("Authorization") != "" {
		t.Errorf("headers: %v", h)
	}
	bare := llmtest.NewServer(t)
	if _, err := List(context.Background(), nil, "openai", bare.BaseURL(llmtest.OpenAI), ""); err == nil {
		t.Error("a server without a model list answered one")
	}
}

// An OpenRouter listing states each model's window and the output limit
// of the provider it routes to; vLLM's its max_model_len alone.
func TestListInfoKeepsTheListedLimits(t *testing.T) {
	for _, c := range []struct {
		style llmtest.WindowStyle
		want  Limits
	}{{llmtest.OpenRouter, Limits{Context: 40_960, Output: 16_384}}, {llmtest.VLLM, Limits{Context: 40_960}}} {
		srv := llmtest.NewServer(t)
		srv.ReportWindow(c.style, "vendor/coder-x", 40_960)
		infos, err := ListInfo(context.Background(), nil, "openai", srv.BaseURL(llmtest.OpenAI), "")
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(infos, func(m Info) bool { return m.ID == "vendor/coder-x" })
		if len(infos) != 2 || i < 0 || infos[i].Limits != c.want {
			t.Errorf("%s: %+v, want vendor/coder-x with %+v", c.style, infos, c.want)
		}
	}
}
