package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm/models"
)

// discoverTimeout bounds the startup question to a local model server;
// hosted APIs answer it with a quick 404.
const discoverTimeout = 2 * time.Second

// newWindows resolves context windows from the configuration and, for an
// OpenAI-compatible server at a configured base URL whose window the user
// did not set, from what the server reports about the default model. The
// server is asked later (models.Windows.Probe): the agent asks once its
// front door has answered first, and the first model request waits for
// the answer.
func newWindows(cfg config.Config, log *slog.Logger) *models.Windows {
	w := &models.Windows{Env: cfg.ContextWindow, Config: cfg.ContextWindows,
		Notice: func(msg string) { log.Warn(msg) },
		// What a server's refusals teach about its limit outlives the
		// process: the next one would overflow again otherwise.
		Endpoint: models.Endpoint(baseURL(cfg)),
		Limits:   &models.LimitFile{Path: filepath.Join(cfg.Home, models.LimitsFileName)}}
	if cfg.Provider == config.Gemini && cfg.Google.GeminiKey != "" {
		w.Probe = geminiProbe(cfg, w, log)
		return w
	}
	if cfg.Provider != "openai" || cfg.OpenAIBaseURL == "" || cfg.ContextWindow > 0 || cfg.ContextWindows[cfg.Model] > 0 {
		return w
	}
	w.Probe = func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(ctx, discoverTimeout)
		defer cancel()
		l, err := models.Discover(ctx, nil, cfg.OpenAIBaseURL, cfg.OpenAIKey, cfg.Model)
		if err != nil {
			log.Debug("context window not reported", "model", cfg.Model, "err", err)
			return
		}
		w.LearnLimits(cfg.Model, l)
	}
	return w
}

// geminiProbe asks the Gemini API for the default model's limits: the
// first request waits for the probe, not for the whole listing, and its
// output limit must not be exceeded from the first request on.
func geminiProbe(cfg config.Config, w *models.Windows, log *slog.Logger) func(context.Context) {
	return func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(ctx, discoverTimeout)
		defer cancel()
		m, err := models.GetGemini(ctx, nil, googleBaseURL(cfg), cfg.Google.GeminiKey, cfg.Model)
		if err != nil {
			log.Debug("model limits not reported", "model", cfg.Model, "err", err)
			return
		}
		w.LearnLimits(cfg.Model, m.Limits)
	}
}
