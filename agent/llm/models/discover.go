package models

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Discover asks an OpenAI-compatible server how large model's context is
// and, where it says, how many tokens one answer may have, in the ways
// local servers and routers report them: vLLM's, llama.cpp's and
// OpenRouter's /v1/models (max_model_len, meta.n_ctx, context_length;
// OpenRouter's top_provider.max_completion_tokens), llama.cpp's /props
// (n_ctx), LM Studio's /api/v0/models (the context the model was loaded
// with) and Ollama's /api/show (model_info "<arch>.context_length").
// baseURL is the OpenAI base ("http://host:port/v1"). It returns no
// window and an error when no route answers with a size; hosted APIs
// report none, which is not a problem. The caller bounds the time with
// ctx. apiKey, when set, goes with each request as a bearer token (vLLM
// started with --api-key wants it); it is sent to baseURL's server only,
// like every model request.
func Discover(ctx context.Context, client *http.Client, baseURL, apiKey, model string) (Limits, error) {
	if client == nil {
		client = http.DefaultClient
	}
	base := strings.TrimRight(baseURL, "/")
	root := strings.TrimSuffix(base, "/v1")
	c := get{client: client, key: apiKey}
	var errs []string
	try := func(name string, f func() (Limits, error)) Limits {
		l, err := f()
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", name, err))
		}
		return l
	}
	if l := try("models", func() (Limits, error) { return fromModels(ctx, c, base+"/models", model) }); l.Context > 0 {
		return l, nil
	}
	window := func(f func() (int, error)) func() (Limits, error) {
		return func() (Limits, error) { n, err := f(); return Limits{Context: n}, err }
	}
	if l := try("props", window(func() (int, error) { return fromProps(ctx, c, root+"/props") })); l.Context > 0 {
		return l, nil
	}
	if l := try("api/v0/models", window(func() (int, error) { return fromLMStudio(ctx, c, root+"/api/v0/models", model) })); l.Context > 0 {
		return l, nil
	}
	if l := try("api/show", window(func() (int, error) { return fromOllama(ctx, c, root+"/api/show", model) })); l.Context > 0 {
		return l, nil
	}
	return Limits{}, fmt.Errorf("models: %s reports no context window for %s (%s)", base, model, strings.Join(errs, "; "))
}

// listed is one entry of an OpenAI-style /v1/models, with the limits
// vLLM, llama.cpp and OpenRouter add to it.
type listed struct {
	ID          string `json:"id"`
	MaxModelLen int    `json:"max_model_len"`
	// OpenRouter's window for the model, and what the provider it routes
	// to by default lets one answer have.
	ContextLength int `json:"context_length"`
	TopProvider   struct {
		MaxCompletionTokens int `json:"max_completion_tokens"`
	} `json:"top_provider"`
	Meta struct {
		NCtx      int `json:"n_ctx"`
		NCtxTrain int `json:"n_ctx_train"`
	} `json:"meta"`
}

// limits is what the entry says of the model's window and output.
func (m listed) limits() Limits {
	return Limits{Context: cmp.Or(m.MaxModelLen, m.ContextLength, m.Meta.NCtx, m.Meta.NCtxTrain),
		Output: m.TopProvider.MaxCompletionTokens}
}

func fromModels(ctx context.Context, c get, url, model string) (Limits, error) {
	var body struct {
		Data []listed `json:"data"`
	}
	if err := c.json(ctx, http.MethodGet, url, nil, &body); err != nil {
		return Limits{}, err
	}
	for _, m := range body.Data {
		// llama.cpp serves one model under whatever id it was started with.
		if m.ID != model && len(body.Data) > 1 {
			continue
		}
		if l := m.limits(); l.Context > 0 {
			return l, nil
		}
	}
	return Limits{}, nil
}

// fromLMStudio reads LM Studio's own model list: a loaded model's window
// is the one it was loaded with, which LM Studio refuses requests beyond;
// a model not loaded yet gets its maximum.
func fromLMStudio(ctx context.Context, c get, url, model string) (int, error) {
	var body struct {
		Data []struct {
			ID        string `json:"id"`
			Loaded    int    `json:"loaded_context_length"`
			MaxLength int    `json:"max_context_length"`
		} `json:"data"`
	}
	if err := c.json(ctx, http.MethodGet, url, nil, &body); err != nil {
		return 0, err
	}
	for _, m := range body.Data {
		if m.ID != model {
			continue
		}
		if m.Loaded > 0 {
			return m.Loaded, nil
		}
		return m.MaxLength, nil
	}
	return 0, nil
}

func fromProps(ctx context.Context, c get, url string) (int, error) {
	var body struct {
		NCtx     int `json:"n_ctx"`
		Settings struct {
			NCtx int `json:"n_ctx"`
		} `json:"default_generation_settings"`
	}
	if err := c.json(ctx, http.MethodGet, url, nil, &body); err != nil {
		return 0, err
	}
	if body.Settings.NCtx > 0 {
		return body.Settings.NCtx, nil
	}
	return body.NCtx, nil
}

func fromOllama(ctx context.Context, c get, url, model string) (int, error) {
	req, _ := json.Marshal(map[string]string{"model": model})
	var body struct {
		ModelInfo map[string]json.RawMessage `json:"model_info"`
	}
	if err := c.json(ctx, http.MethodPost, url, req, &body); err != nil {
		return 0, err
	}
	for k, v := range body.ModelInfo {
		if strings.HasSuffix(k, ".context_length") {
			var n int
			if json.Unmarshal(v, &n) == nil && n > 0 {
				return n, nil
			}
		}
	}
	return 0, nil
}

// get is the client and key the metadata requests go with.
type get struct {
	client    *http.Client
	key       string
	anthropic bool // the key goes in Anthropic's headers, not as a bearer token
	google    bool // the key goes in x-goog-api-key
}

// json reads one small JSON answer; anything but 200 is an error.
func (c get) json(ctx context.Context, method, url string, body []byte, into any) error {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	switch {
	case c.anthropic:
		req.Header.Set("anthropic-version", "2023-06-01")
		if c.key != "" {
			req.Header.Set("x-api-key", c.key)
		}
	case c.google:
		if c.key != "" {
			req.Header.Set("x-goog-api-key", c.key)
		}
	case c.key != "":
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &StatusError{Code: resp.StatusCode}
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(into); err != nil {
		return fmt.Errorf("bad JSON: %w", err)
	}
	return nil
}

// StatusError is a metadata request answered with another status than 200.
type StatusError struct{ Code int }

func (e *StatusError) Error() string { return fmt.Sprintf("HTTP %d", e.Code) }
