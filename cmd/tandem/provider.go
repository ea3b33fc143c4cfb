package main

import (
	"cmp"
	"context"
	"sync"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/agent/llm/openai"
	"github.com/tandemhq/tandem/agent/llm/responses"
	"github.com/tandemhq/tandem/internal/redact"
)

// newProvider builds the configured provider, or nil when none is
// configured: the default provider alone, or with config.json's profiles
// one that sends each request to the provider of its model (profiles.go).
// t carries the HTTP client and retry policy (the zero value is the
// default); red learns the credentials a provider gets at run time
// (Vertex's access tokens).
func newProvider(cfg config.Config, t llm.Transport, red *redact.Redactor) (llm.Provider, error) {
	if len(cfg.Profiles) > 0 {
		return newRoutedProvider(cfg, t, red)
	}
	return newOneProvider(cfg, t, red)
}

// newOneProvider builds cfg's provider, ignoring its profiles; nil when it
// has none or lacks its key.
func newOneProvider(cfg config.Config, t llm.Transport, red *redact.Redactor) (llm.Provider, error) {
	switch cfg.Provider {
	case "anthropic":
		if cfg.AnthropicKey == "" {
			return nil, nil
		}
		return anthropic.New(anthropic.Options{Transport: t, APIKey: cfg.AnthropicKey, BaseURL: cfg.AnthropicBaseURL}), nil
	case "openai":
		if cfg.OpenAIAPI == config.OpenAIResponses {
			return responses.New(responses.Options{Transport: t, APIKey: cfg.OpenAIKey, BaseURL: cfg.OpenAIBaseURL}), nil
		}
		return openai.New(openai.Options{Transport: t, APIKey: cfg.OpenAIKey, BaseURL: cfg.OpenAIBaseURL}), nil
	case config.Bedrock:
		return newBedrock(cfg, t, red)
	case config.Azure:
		return newAzure(cfg, t, red)
	case config.Gemini, config.Vertex:
		return newGoogleProvider(cfg, t, red)
	}
	return nil, nil
}

// loginProvider holds the configured provider and follows the login: with
// no provider built (tandem started with no key, or a logout forgot it) it
// reads the configuration again whenever it is asked, so a key stored by
// `tandem login` (or an editor's login flow) takes effect without a
// restart. Once a provider is built it is kept until Forget.
type loginProvider struct {
	getenv    func(string) string
	transport llm.Transport // as for newProvider
	// red is the process's redactor: it learns the keys each reread
	// finds, a key stored after the start included.
	red *redact.Redactor

	mu    sync.Mutex
	inner llm.Provider
	model string // the default model of the configuration that built inner
}

func (p *loginProvider) get() (llm.Provider, string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inner != nil {
		return p.inner, p.model, nil
	}
	cfg, err := config.Load(p.getenv)
	p.red.Learn(cfg.Secrets...)
	if err != nil {
		return nil, "", err
	}
	inner, err := newProvider(cfg, p.transport, p.red)
	if err != nil {
		return nil, "", err
	}
	if inner == nil {
		return nil, "", llm.ErrNotConfigured
	}
	p.inner, p.model = inner, cfg.Model
	return inner, cfg.Model, nil
}

func (p *loginProvider) Name() string {
	if inner, _, err := p.get(); err == nil {
		return inner.Name()
	}
	return "unconfigured"
}

// Forget implements llm.Forgetter: after a logout the provider is built
// again from what configuration is left.
func (p *loginProvider) Forget() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.inner, p.model = nil, ""
}

// Ready implements llm.Readier.
func (p *loginProvider) Ready() error {
	_, _, err := p.get()
	return err
}

func (p *loginProvider) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Response, error) {
	inner, model, err := p.get()
	if err != nil {
		return nil, err
	}
	if req.Model == "" {
		// Sessions opened before the login have no model of their own.
		r := *req
		r.Model = model
		req = &r
	}
	return inner.Stream(ctx, req, emit)
}

// modelLister asks the configured providers for their models (the
// default's and each profile's), or is nil when none can be asked (the
// login flow offers the defaults).
// A provider whose listing reports context windows (Gemini's) teaches
// them to w, which may be nil.
func modelLister(cfg config.Config, w *models.Windows) func(context.Context) ([]string, error) {
	if len(cfg.Profiles) > 0 {
		return routedLister(cfg, w)
	}
	return oneLister(cfg, w)
}

// oneLister is modelLister for cfg's own provider.
func oneLister(cfg config.Config, w *models.Windows) func(context.Context) ([]string, error) {
	base := baseURL(cfg)
	switch cfg.Provider {
	case config.Gemini, config.Vertex:
		return googleLister(cfg, w)
	case config.Bedrock:
		return bedrockLister(cfg)
	case config.Azure:
		return azureLister(cfg, w)
	case "anthropic":
		if cfg.AnthropicKey == "" {
			return nil
		}
		return func(ctx context.Context) ([]string, error) {
			return models.List(ctx, nil, "anthropic", base, cfg.AnthropicKey)
		}
	case "openai":
		// OpenRouter's and vLLM's listings say each model's limits: a
		// model picked from them is known before its first request.
		return func(ctx context.Context) ([]string, error) {
			infos, err := models.ListInfo(ctx, nil, "openai", base, cfg.OpenAIKey)
			return learnListed(infos, w), err
		}
	}
	return nil
}

// baseURL is where the configured provider's requests go: its configured
// base URL, else the provider's own; "" for no provider.
func baseURL(cfg config.Config) string {
	switch cfg.Provider {
	case "anthropic":
		return cmp.Or(cfg.AnthropicBaseURL, anthropic.DefaultBaseURL)
	case "openai":
		return cmp.Or(cfg.OpenAIBaseURL, openai.DefaultBaseURL)
	case config.Gemini, config.Vertex:
		return googleBaseURL(cfg)
	}
	return cloudBaseURL(cfg)
}
