// Package responses streams model responses from OpenAI's Responses API
// (POST /v1/responses) over server-sent events. It is the wire for
// OpenAI's own endpoint: reasoning models keep their reasoning between
// turns only here, as encrypted reasoning items the client sends back
// (the requests are made with store:false, so the server keeps nothing),
// and their reasoning summaries stream as thinking.
//
// Reasoning items are carried in the history as thinking parts: the
// summary as Text and the encrypted content as the part's Signature, the
// way Anthropic's thinking signatures are carried.
//
// It must never log or return the API key.
package responses

import (
	"context"
	"io"
	"net/http"
	"strings"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
)

const (
	// DefaultBaseURL includes /v1; the client appends /responses.
	DefaultBaseURL = "https://api.openai.com/v1"
	// KeyEnv is where users put the key; named in 401/403 errors.
	KeyEnv = config.OpenAIKeyEnv
	name   = "openai"
)

// Options configures a provider.
type Options struct {
	llm.Transport
	APIKey  string // sent as a Bearer token when set
	BaseURL string // including /v1; default DefaultBaseURL

	// For a service serving this wire under its own name, paths and
	// credential (Azure OpenAI): Name in errors and logs (default
	// "openai"), KeyEnv named in 401/403 errors (default OPENAI_API_KEY),
	// URL the request's address for a model (default BaseURL +
	// "/responses"), Auth its credential (default APIKey as a Bearer
	// token).
	Name   string
	KeyEnv string
	URL    func(model string) string
	Auth   llm.Auth
}

// Provider is the Responses API implementation of llm.Provider.
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
	if opts.Name == "" {
		opts.Name = name
	}
	if opts.KeyEnv == "" {
		opts.KeyEnv = KeyEnv
	}
	if opts.URL == nil {
		url := opts.BaseURL + "/responses"
		opts.URL = func(string) string { return url }
	}
	if opts.Auth == nil {
		opts.Auth = llm.BearerAuth(opts.APIKey)
	}
	return &Provider{opts: opts}
}

// Name implements llm.Provider. It is the provider users configure
// (TANDEM_PROVIDER=openai, or azure), whichever of OpenAI's wires it speaks.
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
	// A stream cut off before response.completed is sent once more.
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
