// Package anthropic streams responses from Anthropic's Messages API over
// server-sent events, with a hand-written client (no SDK) so the request
// bytes are fully under our control: the serialized history must stay
// byte-identical between requests for the prompt cache to hit.
//
// It must never log or return the API key, and never reorder or rewrite
// thinking blocks: they are sent back exactly as received.
package anthropic

import (
	"cmp"
	"context"
	"io"
	"net/http"
	"strings"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
)

const (
	// DefaultBaseURL is the public API; the client appends /v1/messages.
	DefaultBaseURL = "https://api.anthropic.com"
	// DefaultVersion is the anthropic-version header value.
	DefaultVersion = "2023-06-01"
	// DefaultMaxTokens is used when a request does not set MaxTokens.
	DefaultMaxTokens = 8192
	// KeyEnv is where users put the key; named in 401/403 errors.
	KeyEnv = config.AnthropicKeyEnv
)

// Options configures a provider. Only APIKey is needed for the public API.
type Options struct {
	llm.Transport
	APIKey    string
	BaseURL   string // without /v1; default DefaultBaseURL
	Version   string // anthropic-version header; default DefaultVersion
	MaxTokens int    // used when Request.MaxTokens is 0; default DefaultMaxTokens
	// ThinkingBudget enables extended thinking with this many tokens when > 0.
	ThinkingBudget int
	// Beta is sent as the anthropic-beta header when set.
	Beta string

	// For Anthropic's models on another cloud (Vertex AI): the provider's
	// name and key variable, the URL a model's stream is posted to, the
	// bearer token to send (fetched per request, so it is renewed when it
	// expires; its error is returned as is), and BodyVersion, which goes
	// in the body as anthropic_version in place of the model, which such
	// a URL names.
	Name        string
	KeyEnv      string
	URL         func(model string) string
	Token       func(ctx context.Context) (string, error)
	BodyVersion string
}

// Provider is the Anthropic implementation of llm.Provider.
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
	// Accept ".../v1" too: people copy it from OpenAI-style settings.
	opts.BaseURL = strings.TrimSuffix(strings.TrimRight(opts.BaseURL, "/"), "/v1")
	if opts.Version == "" {
		opts.Version = DefaultVersion
	}
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = DefaultMaxTokens
	}
	opts.Name = cmp.Or(opts.Name, "anthropic")
	opts.KeyEnv = cmp.Or(opts.KeyEnv, KeyEnv)
	return &Provider{opts: opts}
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
	h.Set("anthropic-version", p.opts.Version)
	secret, url := p.opts.APIKey, p.opts.BaseURL+"/v1/messages"
	if p.opts.Token != nil {
		if secret, err = p.opts.Token(ctx); err != nil {
			return nil, err
		}
		h.Set("Authorization", "Bearer "+secret)
	} else if secret != "" {
		h.Set("x-api-key", secret)
	}
	if p.opts.URL != nil { // after the token: finding it may settle the URL's parts
		url = p.opts.URL(req.Model)
	}
	if p.opts.Beta != "" {
		h.Set("anthropic-beta", p.opts.Beta)
	}
	// A stream cut off before its stop reason is sent once more.
	return llm.PostStream(ctx, llm.HTTPRequest{
		Transport: p.opts.Transport,
		Provider:  p.Name(),
		KeyEnv:    p.opts.KeyEnv,
		Key:       secret,
		URL:       url,
		Header:    h,
		Body:      body,
	}, func(r io.Reader) (*llm.Response, error) { return readStream(ctx, &p.sse, p.opts.Name, r, emit) })
}
