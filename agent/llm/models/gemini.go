package models

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Info is a model as a provider's listing describes it; zero limits are
// unknown.
type Info struct {
	ID     string
	Limits Limits
}

// geminiModel is one entry of the Gemini API's models listing.
type geminiModel struct {
	Name                       string   `json:"name"` // "models/gemini-2.5-pro"
	InputTokenLimit            int      `json:"inputTokenLimit"`
	OutputTokenLimit           int      `json:"outputTokenLimit"`
	SupportedGenerationMethods []string `json:"supportedGenerationMethods"`
}

// ListGemini lists the Gemini API's models that generate content
// (GET {base}/v1beta/models, every page), with the input and output
// limits it reports: tandem's context window for a Gemini model is its
// input limit, what a request may hold. The key goes in x-goog-api-key to
// baseURL's server only.
func ListGemini(ctx context.Context, client *http.Client, baseURL, apiKey string) ([]Info, error) {
	if client == nil {
		client = http.DefaultClient
	}
	base := strings.TrimRight(baseURL, "/") + "/v1beta/models?pageSize=1000"
	var out []Info
	token := ""
	for page := 0; page < 20; page++ {
		u := base
		if token != "" {
			u += "&pageToken=" + url.QueryEscape(token)
		}
		var body struct {
			Models        []geminiModel `json:"models"`
			NextPageToken string        `json:"nextPageToken"`
		}
		if err := (get{client: client, key: apiKey, google: true}).json(ctx, http.MethodGet, u, nil, &body); err != nil {
			return nil, fmt.Errorf("models: %s: %w", strings.TrimRight(baseURL, "/")+"/v1beta/models", err)
		}
		for _, m := range body.Models {
			id := strings.TrimPrefix(m.Name, "models/")
			if id == "" || !slices.Contains(m.SupportedGenerationMethods, "generateContent") || !chat(id) {
				continue
			}
			out = append(out, Info{ID: id, Limits: Limits{Context: m.InputTokenLimit, Output: m.OutputTokenLimit}})
		}
		if token = body.NextPageToken; token == "" {
			break
		}
	}
	return out, nil
}

// GetGemini asks the Gemini API about one model (GET
// {base}/v1beta/models/{id}): a check of the key and the model that
// spends no tokens.
func GetGemini(ctx context.Context, client *http.Client, baseURL, apiKey, model string) (Info, error) {
	if client == nil {
		client = http.DefaultClient
	}
	id := strings.TrimPrefix(model, "models/")
	u := strings.TrimRight(baseURL, "/") + "/v1beta/models/" + url.PathEscape(id)
	var m geminiModel
	if err := (get{client: client, key: apiKey, google: true}).json(ctx, http.MethodGet, u, nil, &m); err != nil {
		return Info{}, fmt.Errorf("models: %s: %w", u, err)
	}
	return Info{ID: id, Limits: Limits{Context: m.InputTokenLimit, Output: m.OutputTokenLimit}}, nil
}
