package main

import (
	"cmp"
	"context"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/gemini"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/agent/llm/vertex"
	"github.com/tandemhq/tandem/internal/redact"
)

// newGoogleProvider builds the gemini or vertex provider of cfg; nil
// when the Gemini API has no key.
func newGoogleProvider(cfg config.Config, t llm.Transport, red *redact.Redactor) (llm.Provider, error) {
	g := cfg.Google
	if cfg.Provider == config.Gemini {
		if g.GeminiKey == "" {
			return nil, nil
		}
		return gemini.New(gemini.Options{Transport: t, APIKey: g.GeminiKey, KeyEnv: g.GeminiKeyEnv, BaseURL: g.GeminiBaseURL}), nil
	}
	return newVertex(cfg, t, red), nil
}

// newVertex builds cfg's Vertex AI provider; it does no I/O (the
// credentials are found at the first request). The access tokens it gets
// are taught to red before they are used.
func newVertex(cfg config.Config, t llm.Transport, red *redact.Redactor) *vertex.Provider {
	g := cfg.Google
	return vertex.New(vertex.Options{Transport: t, Project: g.Project, Location: g.Location, CredentialsFile: g.CredentialsFile,
		BaseURL: g.VertexBaseURL, Learn: func(tok string) { red.Learn(tok) }})
}

// googleBaseURL is where cfg's Google requests go.
func googleBaseURL(cfg config.Config) string {
	if cfg.Provider == config.Vertex {
		return newVertex(cfg, llm.Transport{}, nil).Endpoint()
	}
	return cmp.Or(cfg.Google.GeminiBaseURL, gemini.DefaultBaseURL)
}

// googleLister lists the Gemini API's models and teaches w their input
// limits as context windows, and their output limits.
func googleLister(cfg config.Config, w *models.Windows) func(context.Context) ([]string, error) {
	g := cfg.Google
	if cfg.Provider != config.Gemini || g.GeminiKey == "" {
		return nil
	}
	return func(ctx context.Context) ([]string, error) {
		infos, err := models.ListGemini(ctx, nil, googleBaseURL(cfg), g.GeminiKey)
		return learnListed(infos, w), err
	}
}
