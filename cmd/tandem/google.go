package main

import (
	"cmp"
	"context"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/gemini"
	"github.com/tandemhq/tandem/agent/llm/models"
)

// newGoogleProvider builds the gemini or vertex provider of cfg; nil
// when the Gemini API has no key.
func newGoogleProvider(cfg config.Config, t llm.Transport) (llm.Provider, error) {
	g := cfg.Google
	if cfg.Provider == config.Gemini {
		if g.GeminiKey == "" {
			return nil, nil
		}
		return gemini.New(gemini.Options{Transport: t, APIKey: g.GeminiKey, KeyEnv: g.GeminiKeyEnv, BaseURL: g.GeminiBaseURL}), nil
	}
	return nil, nil
}

// googleBaseURL is where cfg's Google requests go.
func googleBaseURL(cfg config.Config) string {
	return cmp.Or(cfg.Google.GeminiBaseURL, gemini.DefaultBaseURL)
}

// googleLister lists the Gemini API's models and teaches w their input
// limits as context windows.
func googleLister(cfg config.Config, w *models.Windows) func(context.Context) ([]string, error) {
	g := cfg.Google
	if cfg.Provider != config.Gemini || g.GeminiKey == "" {
		return nil
	}
	return func(ctx context.Context) ([]string, error) {
		infos, err := models.ListGemini(ctx, nil, googleBaseURL(cfg), g.GeminiKey)
		if err != nil {
			return nil, err
		}
		ids := make([]string, len(infos))
		for i, m := range infos {
			ids[i] = m.ID
			if w != nil {
				w.Learn(m.ID, m.Limits.Context)
			}
		}
		return ids, nil
	}
}
