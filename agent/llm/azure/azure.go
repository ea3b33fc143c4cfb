// Package azure serves Azure OpenAI's deployments over the two OpenAI
// wires tandem already speaks: the Responses API (package responses, the
// default) and Chat Completions (package openai), each given Azure's
// addresses, api-version and credential. It holds no wire code of its own.
//
// Addresses follow the api-version (OPENAI_API_VERSION): unset, "v1",
// "latest" or "preview" use the v1 API (/openai/v1/responses,
// /openai/v1/chat/completions, the deployment as the model); a dated
// version ("2025-04-01-preview") uses the older paths
// (/openai/responses?api-version=…,
// /openai/deployments/{deployment}/chat/completions?api-version=…).
//
// The credential is an api-key header (AZURE_OPENAI_API_KEY) or a
// Microsoft Entra ID token sent as a Bearer token: one given as it is
// (AZURE_OPENAI_AD_TOKEN), or one fetched with a service principal's
// client secret (AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET)
// by the OAuth 2.0 client-credentials flow and refreshed as it expires.
//
// It must never log or return a key or token.
package azure

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/oauth2"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/openai"
	"github.com/tandemhq/tandem/agent/llm/responses"
)

const (
	name = "azure"
	// KeyEnv names the key variable in 401/403 errors.
	KeyEnv = "AZURE_OPENAI_API_KEY"
	// Scope is what an Entra ID token for Azure OpenAI is asked for.
	Scope = "https://cognitiveservices.azure.com/.default"
)

// The wires (Options.Wire).
const (
	Responses = "responses"
	Chat      = "chat"
)

// Options configures a provider.
type Options struct {
	llm.Transport
	// Endpoint is the resource's address, https://<resource>.openai.azure.com.
	Endpoint string
	// APIVersion is OPENAI_API_VERSION ("" is the v1 API).
	APIVersion string
	// Wire is Responses (default) or Chat.
	Wire string
	// APIKey is sent in the api-key header. Without one, Token is asked
	// for an Entra ID token.
	APIKey string
	Token  oauth2.TokenSource
	// Learn, when set, is told each Entra ID token before it is sent (the
	// process's redactor).
	Learn func(secrets ...string)
}

// New returns a provider; it does no I/O.
func New(opts Options) (llm.Provider, error) {
	endpoint, auth, err := opts.resource()
	if err != nil {
		return nil, err
	}
	a := addresses{endpoint: endpoint, version: opts.APIVersion}
	switch opts.Wire {
	case "", Responses:
		return responses.New(responses.Options{Transport: opts.Transport, Name: name, KeyEnv: KeyEnv, URL: a.responses, Auth: auth}), nil
	case Chat:
		// Azure's reasoning deployments refuse max_tokens; every
		// deployment takes max_completion_tokens.
		return openai.New(openai.Options{Transport: opts.Transport, Name: name, KeyEnv: KeyEnv, URL: a.chat, Auth: auth,
			MaxTokensField: "max_completion_tokens"}), nil
	}
	return nil, fmt.Errorf("azure: wire %q: use responses or chat", opts.Wire)
}

// resource is the resource's address (without a trailing /openai) and
// the credential its requests carry.
func (opts Options) resource() (string, llm.Auth, error) {
	endpoint := strings.TrimRight(opts.Endpoint, "/")
	if u, err := url.Parse(endpoint); err != nil || u.Scheme == "" || u.Host == "" {
		return "", nil, fmt.Errorf("azure: AZURE_OPENAI_ENDPOINT %q is not a URL like https://<resource>.openai.azure.com", opts.Endpoint)
	}
	endpoint = strings.TrimSuffix(endpoint, "/openai")
	if opts.APIKey != "" {
		return endpoint, keyAuth(opts.APIKey), nil
	}
	if opts.Token == nil {
		return "", nil, fmt.Errorf("azure: no credential: set %s, AZURE_OPENAI_AD_TOKEN, or AZURE_TENANT_ID with AZURE_CLIENT_ID and AZURE_CLIENT_SECRET", KeyEnv)
	}
	return endpoint, tokenAuth(opts.Token, opts.Learn), nil
}

// addresses builds request URLs from the endpoint and api-version.
type addresses struct{ endpoint, version string }

// v1 reports whether the version is the v1 API's; its optional
// api-version query is "preview" or nothing.
func (a addresses) v1() bool {
	switch a.version {
	case "", "v1", "latest", "preview":
		return true
	}
	return false
}

func (a addresses) query() string {
	switch {
	case a.version == "preview":
		return "?api-version=preview"
	case a.v1():
		return ""
	}
	return "?api-version=" + url.QueryEscape(a.version)
}

func (a addresses) responses(string) string {
	if a.v1() {
		return a.endpoint + "/openai/v1/responses" + a.query()
	}
	return a.endpoint + "/openai/responses" + a.query()
}

func (a addresses) chat(deployment string) string {
	if a.v1() {
		return a.endpoint + "/openai/v1/chat/completions" + a.query()
	}
	return a.endpoint + "/openai/deployments/" + url.PathEscape(deployment) + "/chat/completions" + a.query()
}

func keyAuth(key string) llm.Auth {
	return func(_ context.Context, h http.Header) (string, error) {
		h.Set("Api-Key", key)
		return key, nil
	}
}

// tokenAuth sends the source's token; a source that fails is a 401 with
// its reason (the token endpoint's answer, scrubbed of the token).
func tokenAuth(ts oauth2.TokenSource, learn func(...string)) llm.Auth {
	return func(ctx context.Context, h http.Header) (string, error) {
		tok, err := ts.Token()
		if err != nil {
			if ctx.Err() != nil {
				return "", llm.Cancelled(ctx, name, ctx.Err())
			}
			return "", &llm.Error{Provider: name, Status: http.StatusUnauthorized, Message: "getting an Entra ID token: " + err.Error(), KeyEnv: "AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET", Err: err}
		}
		if learn != nil {
			learn(tok.AccessToken)
		}
		h.Set("Authorization", "Bearer "+tok.AccessToken)
		return tok.AccessToken, nil
	}
}
