package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/models"
)

// googleProvider is checkProvider's line for gemini and vertex; false for
// other providers.
func (d *doctor) googleProvider() (finding, bool) {
	c, g := d.cfg, d.cfg.Google
	switch c.Provider {
	case config.Gemini:
		if g.GeminiKey == "" {
			return finding{levelFail, "provider", "gemini without a key", "tandem login --provider gemini, or export " + config.GeminiKeyEnv + "=…"}, true
		}
		from := "key from " + g.GeminiKeyEnv
		if d.m.Getenv(g.GeminiKeyEnv) == "" {
			from = "key from config.json"
			if creds, err := config.LoadCredentials(c.Home); err == nil && creds.GeminiAPIKey == g.GeminiKey {
				from = "key from tandem login"
			}
		}
		return finding{levelOK, "provider", "gemini (" + from + ", server " + googleBaseURL(c) + ")", ""}, true
	case config.Vertex:
		creds := "application-default credentials"
		if g.CredentialsFile != "" {
			creds = "credentials " + g.CredentialsFile
		}
		project := g.Project
		if project == "" {
			project = "the credentials' project"
		}
		return finding{levelOK, "provider", fmt.Sprintf("vertex (%s, %s, location %s, server %s)", project, creds, g.Location, googleBaseURL(c)), ""}, true
	}
	return finding{}, false
}

// profiles lists config.json's profiles: which provider serves which
// models.
func (d *doctor) profiles() []finding {
	var out []finding
	for _, p := range d.cfg.Profiles {
		models := strings.Join(p.Config.Models, ", ")
		if len(p.Prefixes) > 0 {
			models += " and " + strings.Join(p.Prefixes, "*, ") + "*"
		}
		out = append(out, finding{levelInfo, "profile " + p.Name, p.Config.Provider + " for " + models, ""})
	}
	return out
}

// onlineGoogle checks gemini and vertex without spending tokens where the
// API allows: the Gemini API's models.get proves the key and the model;
// Vertex gets an access token (the credentials) and then sends one small
// request (the endpoint and the model); false for other providers.
func (d *doctor) onlineGoogle(ctx context.Context) ([]finding, bool) {
	c := d.cfg
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	switch c.Provider {
	case config.Gemini:
		if c.Google.GeminiKey == "" {
			return []finding{{levelFail, "online", "no key to check", "configure one (see provider above)"}}, true
		}
		m, err := models.GetGemini(ctx, nil, googleBaseURL(c), c.Google.GeminiKey, c.Model)
		var se *models.StatusError
		switch {
		case err == nil:
			return []finding{{levelOK, "online", fmt.Sprintf("the key is accepted and %s exists (input limit %s tokens); no tokens spent", m.ID, thousands(m.Limits.Context)), ""}}, true
		case errors.As(err, &se) && se.Code == 404:
			return []finding{{levelFail, "online", "model " + c.Model + " not found" + modelsHint(ctx, c), "set TANDEM_MODEL (or model in config.json) to one it offers"}}, true
		case errors.As(err, &se) && (se.Code == 400 || se.Code == 401 || se.Code == 403):
			return []finding{{levelFail, "online", fmt.Sprintf("the key was refused (HTTP %d)", se.Code), "check " + c.Google.GeminiKeyEnv}}, true
		}
		return []finding{{levelFail, "online", d.m.redactor().Text(err.Error()), "check the base URL and the network"}}, true
	case config.Vertex:
		v := newVertex(c, llm.Transport{Retry: llm.RetryPolicy{MaxAttempts: 1}}, d.m.redactor())
		project, err := v.Check(ctx)
		if err != nil {
			return []finding{{levelFail, "online", err.Error(), "run `gcloud auth application-default login`, or set " + config.GoogleCredentialsEnv}}, true
		}
		out := []finding{{levelOK, "credentials", "an access token was issued for project " + project, ""}}
		return append(out, d.smallRequest(ctx, v)...), true
	}
	return nil, false
}
