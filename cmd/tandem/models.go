package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/openai"
)

// listModels asks the configured provider which models it offers (GET
// /v1/models, which Anthropic, OpenAI and the OpenAI-compatible servers all
// answer with {"data": [{"id": ...}]}). The key goes to the configured
// base URL only, as with every model request.
func listModels(ctx context.Context, cfg config.Config) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var url string
	h := http.Header{}
	switch cfg.Provider {
	case "anthropic":
		base := cfg.AnthropicBaseURL
		if base == "" {
			base = anthropic.DefaultBaseURL
		}
		url = strings.TrimSuffix(strings.TrimRight(base, "/"), "/v1") + "/v1/models"
		h.Set("x-api-key", cfg.AnthropicKey)
		h.Set("anthropic-version", anthropic.DefaultVersion)
	case "openai":
		base := cfg.OpenAIBaseURL
		if base == "" {
			base = openai.DefaultBaseURL
		}
		url = strings.TrimRight(base, "/") + "/models"
		if cfg.OpenAIKey != "" {
			h.Set("Authorization", "Bearer "+cfg.OpenAIKey)
		}
	default:
		return nil, fmt.Errorf("no provider configured")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header = h
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("listing models: HTTP %d", resp.StatusCode)
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("listing models: %w", err)
	}
	ids := make([]string, 0, len(list.Data))
	for _, d := range list.Data {
		ids = append(ids, d.ID)
	}
	return ids, nil
}

// modelsHint is ", offered: a, b, c" for an error about an unknown model,
// or "" when the list cannot be had.
func modelsHint(ctx context.Context, cfg config.Config) string {
	ids, err := listModels(ctx, cfg)
	if err != nil || len(ids) == 0 {
		return ""
	}
	const shown = 15
	more := ""
	if len(ids) > shown {
		more = fmt.Sprintf(" and %d more", len(ids)-shown)
		ids = ids[:shown]
	}
	return fmt.Sprintf("; %s offers: %s%s", cfg.Provider, strings.Join(ids, ", "), more)
}
