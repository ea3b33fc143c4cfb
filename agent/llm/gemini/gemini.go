// Package gemini streams model responses from Google's Gemini API
// (POST {base}/v1beta/models/{model}:streamGenerateContent?alt=sse), and
// from the same models on Vertex AI when vertex gives it a URL and a token.
//
// The key goes in the x-goog-api-key header, never in the URL, so no error
// quoting a URL can show it. Thinking streams as thought parts (asked for
// with includeThoughts); the thought signatures Gemini attaches to parts
// are kept on the parts they came with (a thinking, text or tool call
// part's Signature) and sent back in the same place on the next request,
// which is how Gemini keeps its reasoning across turns and tool calls.
//
// Caching: Gemini caches a repeated request prefix implicitly and reports
// the tokens read in cachedContentTokenCount; tandem's byte-stable prefix
// (contents last, history never rewritten) is what it needs. Explicit
// cachedContent is not used: it is a separate resource to create, pay
// storage for by the hour and delete, it must hold the system instruction
// and tools itself (a request using it may not carry them), and it has a
// minimum size; a session's prefix grows every turn, so it would have to
// be recreated as it grows, while the implicit cache follows it for free.
//
// It must never log or return the API key or an access token.
package gemini

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
)

const (
	// DefaultBaseURL is the Gemini API; the client appends /v1beta/models/….
	DefaultBaseURL = "https://generativelanguage.googleapis.com"
	name           = "gemini"
)

// Options configures a provider. The Gemini API needs APIKey alone.
type Options struct {
	llm.Transport
	APIKey  string // sent as x-goog-api-key
	BaseURL string // default DefaultBaseURL
	// KeyEnv names the variable the key came from, for 401/403 errors
	// (default GEMINI_API_KEY).
	KeyEnv string

	// For Vertex AI: the provider's name, the URL a model's stream is
	// posted to, and the bearer token to send (an OAuth2 access token,
	// fetched per request so it is renewed when it expires). Token's
	// error is returned as is: it should be an *llm.Error.
	Name  string
	URL   func(model string) string
	Token func(ctx context.Context) (string, error)
}

// Provider is the Gemini implementation of llm.Provider.
type Provider struct {
	opts   Options
	prefix llm.PrefixCache
	sse    llm.SSEBuffers // its response streams' readers
}

var _ llm.Provider = (*Provider)(nil)

// New returns a provider; it does no I/O.
func New(opts Options) *Provider {
	opts.BaseURL = strings.TrimRight(cmp.Or(opts.BaseURL, DefaultBaseURL), "/")
	opts.KeyEnv = cmp.Or(opts.KeyEnv, config.GeminiKeyEnv)
	opts.Name = cmp.Or(opts.Name, name)
	return &Provider{opts: opts}
}

// Name implements llm.Provider.
func (p *Provider) Name() string { return p.opts.Name }

// ModelID is model without the "models/" the API's own listing puts
// before it.
func ModelID(model string) string { return strings.TrimPrefix(model, "models/") }

func (p *Provider) url(model string) string {
	if p.opts.URL != nil {
		return p.opts.URL(model)
	}
	return fmt.Sprintf("%s/v1beta/models/%s:streamGenerateContent?alt=sse", p.opts.BaseURL, url.PathEscape(ModelID(model)))
}

// Stream implements llm.Provider.
func (p *Provider) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Response, error) {
	body, err := p.encode(req)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	secret := p.opts.APIKey
	if p.opts.Token != nil {
		if secret, err = p.opts.Token(ctx); err != nil {
			return nil, err
		}
		h.Set("Authorization", "Bearer "+secret)
	} else if secret != "" {
		h.Set("x-goog-api-key", secret)
	}
	// A stream cut off before its finish reason is sent once more.
	return llm.PostStream(ctx, llm.HTTPRequest{
		Transport: p.opts.Transport,
		Provider:  p.opts.Name,
		KeyEnv:    p.opts.KeyEnv,
		Key:       secret,
		URL:       p.url(req.Model),
		Header:    h,
		Body:      body,
	}, func(r io.Reader) (*llm.Response, error) { return p.readStream(ctx, r, emit) })
}
