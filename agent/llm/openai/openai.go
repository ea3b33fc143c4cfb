// Package openai streams responses from any server speaking OpenAI's Chat
// Completions API over server-sent events: OpenAI itself, Ollama, vLLM,
// llama.cpp, DeepSeek, OpenRouter. The client is hand-written so it can
// tolerate what those servers do differently (whole tool calls in one
// chunk, missing index fields, extra fields such as reasoning_content) and
// so request bytes are deterministic across a session.
//
// It must never log or return the API key, and it sends no Authorization
// header when no key is set (local servers need none).
package openai

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
)

const (
	// DefaultBaseURL includes /v1; the client appends /chat/completions.
	DefaultBaseURL = "https://api.openai.com/v1"
	// KeyEnv is where users put the key; named in 401/403 errors.
	KeyEnv = config.OpenAIKeyEnv
)

// Options configures a provider.
type Options struct {
	llm.Transport
	APIKey  string // optional: sent as a Bearer token when set
	BaseURL string // including /v1; default DefaultBaseURL
	// MaxTokensField names the request field for Request.MaxTokens:
	// "max_tokens" (what most compatible servers read) or
	// "max_completion_tokens" (required by OpenAI's reasoning models). The
	// default is the latter for OpenAI's own API and the former elsewhere.
	MaxTokensField string
	// DropReasoning stops replaying reasoning_content to the server, for
	// servers that reject it in input messages.
	DropReasoning bool

	// For a service serving this wire under its own name, paths and
	// credential (Azure OpenAI): Name in errors and logs (default
	// "openai"), KeyEnv named in 401/403 errors (default OPENAI_API_KEY),
	// URL the request's address for a model (default BaseURL +
	// "/chat/completions"), Auth its credential (default APIKey as a
	// Bearer token).
	Name   string
	KeyEnv string
	URL    func(model string) string
	Auth   llm.Auth
}

// Provider is the OpenAI-compatible implementation of llm.Provider.
type Provider struct {
	opts   Options
	prefix llm.PrefixCache
	sse    llm.SSEBuffers // its response streams' readers
}

var _ llm.Provider = (*Provider)(nil)

// New returns a provider; it does no I/O.
func New(opts Options) *Provider {
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultBaseURL
	}
	opts.BaseURL = strings.TrimRight(opts.BaseURL, "/")
	if opts.MaxTokensField == "" {
		opts.MaxTokensField = maxTokensField(opts.BaseURL)
	}
	if opts.Name == "" {
		opts.Name = "openai"
	}
	if opts.KeyEnv == "" {
		opts.KeyEnv = KeyEnv
	}
	if opts.URL == nil {
		url := opts.BaseURL + "/chat/completions"
		opts.URL = func(string) string { return url }
	}
	if opts.Auth == nil {
		opts.Auth = llm.BearerAuth(opts.APIKey)
	}
	return &Provider{opts: opts}
}

// maxTokensField picks the token-limit field a server reads. OpenAI's API
// rejects max_tokens for its reasoning models and takes max_completion_tokens
// for every model; compatible servers (Ollama, vLLM, DeepSeek, OpenRouter)
// commonly know only max_tokens.
func maxTokensField(baseURL string) string {
	if u, err := url.Parse(baseURL); err == nil && strings.EqualFold(u.Hostname(), "api.openai.com") {
		return "max_completion_tokens"
	}
	return "max_tokens"
}

// Name implements llm.Provider.
func (p *Provider) Name() string { return p.opts.Name }

// Stream implements llm.Provider.
func (p *Provider) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Response, error) {
	body, err := p.encode(req)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	key, err := p.opts.Auth(ctx, h)
	if err != nil {
		return nil, err
	}
	// A stream cut off before its stop reason is sent once more.
	return llm.PostStream(ctx, llm.HTTPRequest{
		Transport: p.opts.Transport,
		Provider:  p.Name(),
		KeyEnv:    p.opts.KeyEnv,
		Key:       key,
		URL:       p.opts.URL(req.Model),
		Header:    h,
		Body:      body,
	}, func(r io.Reader) (*llm.Response, error) {
		resp, err := readStream(ctx, &p.sse, r, emit)
		return resp, llm.Named(err, p.Name())
	})
}
