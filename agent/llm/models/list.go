package models

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// notChat marks model ids a coding agent cannot converse with: what an
// OpenAI-style /v1/models lists beside the chat models.
var notChat = []string{"embed", "tts", "whisper", "dall-e", "moderation", "audio", "realtime", "image", "transcribe", "search", "davinci", "babbage"}

// List asks the provider which models it serves: an OpenAI-compatible
// server's GET /models (baseURL is the OpenAI base, ".../v1"), or
// Anthropic's GET /v1/models. Ids that are not chat models are left out.
// The key goes only to baseURL's server, as with every model request.
func List(ctx context.Context, client *http.Client, provider, baseURL, apiKey string) ([]string, error) {
	infos, err := ListInfo(ctx, client, provider, baseURL, apiKey)
	ids := make([]string, len(infos))
	for i, m := range infos {
		ids[i] = m.ID
	}
	return ids, err
}

// ListInfo is List with the limits each entry reports, where the server
// adds them to the listing (vLLM's max_model_len, OpenRouter's
// context_length and top_provider.max_completion_tokens, llama.cpp's
// meta.n_ctx); zero where it does not.
func ListInfo(ctx context.Context, client *http.Client, provider, baseURL, apiKey string) ([]Info, error) {
	if client == nil {
		client = http.DefaultClient
	}
	var body struct {
		Data []listed `json:"data"`
	}
	base := strings.TrimRight(baseURL, "/")
	switch provider {
	case "openai":
		if err := (get{client: client, key: apiKey}).json(ctx, http.MethodGet, base+"/models", nil, &body); err != nil {
			return nil, fmt.Errorf("models: %s/models: %w", base, err)
		}
	case "anthropic":
		url := strings.TrimSuffix(base, "/v1") + "/v1/models?limit=1000"
		if err := (get{client: client, key: apiKey, anthropic: true}).json(ctx, http.MethodGet, url, nil, &body); err != nil {
			return nil, fmt.Errorf("models: %s: %w", url, err)
		}
	default:
		return nil, fmt.Errorf("models: unknown provider %q", provider)
	}
	var out []Info
	for _, m := range body.Data {
		if m.ID != "" && chat(m.ID) {
			out = append(out, Info{ID: m.ID, Limits: m.limits()})
		}
	}
	return out, nil
}

func chat(id string) bool {
	l := strings.ToLower(id)
	for _, n := range notChat {
		if strings.Contains(l, n) {
			return false
		}
	}
	return true
}
