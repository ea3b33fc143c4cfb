package vertex

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"strings"

	"golang.org/x/oauth2"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/gemini"
)

const name = config.Vertex

// AnthropicVersion is the anthropic_version Vertex takes in the body of
// an Anthropic model's request.
const AnthropicVersion = "vertex-2023-10-16"

// Options configures a provider.
type Options struct {
	llm.Transport
	// Project and Location place the requests; an empty project is the
	// credentials' own (a service account's key names its project).
	Project  string
	Location string // default config.DefaultVertexLocation ("global")
	// CredentialsFile is a credentials JSON file; "" uses the
	// application-default credentials.
	CredentialsFile string
	// BaseURL replaces the location's endpoint
	// (https://{location}-aiplatform.googleapis.com).
	BaseURL string
	// Learn is told each access token before it is used: the process's
	// redactor, so that no log or message can show it.
	Learn func(secret string)
	// TokenSource, when set, is used in place of Google's credentials
	// (tests; callers with credentials of their own).
	TokenSource oauth2.TokenSource
	// Publisher fixes the publisher every model is asked of, "google" or
	// "anthropic"; "" tells them apart by the model id (IsAnthropic).
	Publisher string
}

// Provider is Vertex AI's implementation of llm.Provider: a model whose id
// starts with "claude" goes to Anthropic's publisher through the
// anthropic wire, any other to Google's through the gemini wire.
type Provider struct {
	opts      Options
	creds     *credentials
	gemini    *gemini.Provider
	anthropic *anthropic.Provider
}

var _ llm.Provider = (*Provider)(nil)

// New returns a provider; it does no I/O: the credentials are found at
// the first request.
func New(opts Options) *Provider {
	opts.Location = cmp.Or(opts.Location, config.DefaultVertexLocation)
	p := &Provider{opts: opts}
	p.creds = &credentials{file: opts.CredentialsFile, project: opts.Project, source: opts.TokenSource, learn: opts.Learn, client: tokenClient(opts.HTTPClient)}
	token := func(ctx context.Context) (string, error) {
		tok, _, err := p.creds.token(ctx)
		return tok, err
	}
	p.gemini = gemini.New(gemini.Options{Transport: opts.Transport, Name: name, KeyEnv: config.GoogleCredentialsEnv, Token: token,
		URL: func(model string) string {
			return p.URL("google", gemini.ModelID(model), "streamGenerateContent?alt=sse")
		}})
	p.anthropic = anthropic.New(anthropic.Options{Transport: opts.Transport, Name: name, KeyEnv: config.GoogleCredentialsEnv, Token: token,
		BodyVersion: AnthropicVersion,
		URL:         func(model string) string { return p.URL("anthropic", model, "streamRawPredict") }})
	return p
}

// Name implements llm.Provider.
func (p *Provider) Name() string { return name }

// Stream implements llm.Provider.
func (p *Provider) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Response, error) {
	if p.opts.Publisher == "anthropic" || p.opts.Publisher == "" && IsAnthropic(req.Model) {
		return p.anthropic.Stream(ctx, req, emit)
	}
	return p.gemini.Stream(ctx, req, emit)
}

// IsAnthropic reports whether Vertex serves model through Anthropic's
// publisher ("claude-sonnet-4-5@20250929").
func IsAnthropic(model string) bool { return strings.HasPrefix(model, "claude") }

// Endpoint is the server Vertex requests go to: BaseURL, else the
// location's own (the global endpoint has no location in its host).
func (p *Provider) Endpoint() string {
	if p.opts.BaseURL != "" {
		return strings.TrimRight(p.opts.BaseURL, "/")
	}
	if p.opts.Location == "global" {
		return "https://aiplatform.googleapis.com"
	}
	return "https://" + p.opts.Location + "-aiplatform.googleapis.com"
}

// URL is a publisher model's method URL in the configured project and
// location; the project is the credentials' when none is configured
// (known once a token was had).
func (p *Provider) URL(publisher, model, method string) string {
	p.creds.mu.Lock()
	project := cmp.Or(p.opts.Project, p.creds.found)
	p.creds.mu.Unlock()
	return fmt.Sprintf("%s/v1/projects/%s/locations/%s/publishers/%s/models/%s:%s", p.Endpoint(),
		url.PathEscape(project), url.PathEscape(p.opts.Location), publisher, url.PathEscape(model), method)
}

// Check gets an access token, which proves the credentials without
// spending any: for tandem doctor.
func (p *Provider) Check(ctx context.Context) (project string, err error) {
	_, project, err = p.creds.token(ctx)
	return project, err
}
