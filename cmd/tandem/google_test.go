package main

import (
	"context"
	"log/slog"
	"slices"
	"testing"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/models"
)

func loadConfig(t *testing.T, vars map[string]string) config.Config {
	t.Helper()
	vars["TANDEM_HOME"] = t.TempDir()
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The model picker gets Gemini's models from its listing (every page, only
// those that generate content), and their input limits become the
// context windows, their output limits the output limits.
func TestGeminiModelsListedWithTheirWindows(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ServeGeminiModels(llmtest.GeminiModel{ID: "gemini-2.5-pro", Input: 1_048_576, Output: 65_536},
		llmtest.GeminiModel{ID: "gemini-2.5-flash", Input: 1_000_000, Output: 65_536},
		llmtest.GeminiModel{ID: "gemma-3-27b-it", Input: 131_072, Output: 4096})
	cfg := loadConfig(t, map[string]string{"GEMINI_API_KEY": "AIza-list-key", "GOOGLE_GEMINI_BASE_URL": srv.URL})
	w := &models.Windows{}
	ids, err := modelLister(cfg, w)(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids, []string{"gemini-2.5-pro", "gemini-2.5-flash", "gemma-3-27b-it"}) {
		t.Errorf("ids = %q", ids)
	}
	if l, src := w.Lookup("gemma-3-27b-it"); l.Context != 131_072 || l.Output != 4096 || src != models.FromServer {
		t.Errorf("limits = %+v from %s", l, src)
	}
	if h := srv.ModelsHeaders(); len(h) != 2 || h[0].Get("X-Goog-Api-Key") != "AIza-list-key" {
		t.Errorf("listing asked %d times, key header %q", len(h), h[0].Get("X-Goog-Api-Key"))
	}
}

// The default Gemini model's limits are asked for on their own, before
// the first request (the probe it waits for), so its output limit holds
// from the first request on, whatever the listing's pace.
func TestGeminiDefaultModelLimitsBeforeTheFirstRequest(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ServeGeminiModels(llmtest.GeminiModel{ID: "gemini-exp-coder", Input: 524_288, Output: 16_384})
	cfg := loadConfig(t, map[string]string{"GEMINI_API_KEY": "AIza-probe-key", "GOOGLE_GEMINI_BASE_URL": srv.URL, "TANDEM_MODEL": "gemini-exp-coder"})
	w := newWindows(cfg, slog.New(slog.DiscardHandler))
	if got := w.MaxOutput("gemini-exp-coder", 100_000); got != 16_384 {
		t.Errorf("MaxOutput = %d, want the listed 16384", got)
	}
	if l, src := w.Lookup("gemini-exp-coder"); l.Context != 524_288 || src != models.FromServer {
		t.Errorf("limits = %+v from %s", l, src)
	}
	if h := srv.ModelsHeaders(); len(h) != 1 || h[0].Get("X-Goog-Api-Key") != "AIza-probe-key" {
		t.Errorf("asked %d times: %v", len(h), h)
	}
}
