// Package bedrock streams model responses from Amazon Bedrock's Converse
// API (POST /model/{modelId}/converse-stream), whose answer is framed in
// AWS's binary event-stream encoding. Requests are signed with SigV4 by
// the AWS SDK's signer, with credentials from the SDK's chain (the
// environment, ~/.aws profiles, SSO, instance roles), resolved by the
// caller and handed in as an aws.CredentialsProvider.
//
// The HTTP exchange is tandem's own (llm.Post: retries, Retry-After, the
// idle timeout, error scrubbing) rather than the SDK's bedrockruntime
// client: the body is sent as the segments llm.PrefixCache keeps, byte
// for byte, which the prompt cache at the stable prefix depends on, and
// the service client would add a second retry loop and its own error
// types for the same six exceptions.
//
// Reasoning (Claude's extended thinking) comes back as reasoningContent
// blocks with a signature; they are kept in the history as thinking
// parts carrying it, and sent back unchanged.
//
// It must never log or return a credential: the secret key, the session
// token and the signed Authorization header stay inside the request.
package bedrock

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/tandemhq/tandem/agent/llm"
)

const (
	name = "bedrock"
	// signingName is the service name in Bedrock runtime's signatures.
	signingName = "bedrock"
	// CredentialsHint names what a user sets when the credentials are
	// missing or refused (401/403).
	CredentialsHint = "AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY"
)

// Options configures a provider.
type Options struct {
	llm.Transport
	// Region signs the requests and picks the default endpoint.
	Region string
	// Endpoint is the runtime's root URL; default
	// https://bedrock-runtime.<Region>.amazonaws.com.
	Endpoint string
	// ControlEndpoint is the control plane's root URL, where List asks;
	// default DefaultControlEndpoint(Region).
	ControlEndpoint string
	// Credentials sign each request (an aws.CredentialsCache in
	// production, so temporary credentials are refreshed as they expire).
	Credentials aws.CredentialsProvider
	// MaxTokens is used when a request sets none.
	MaxTokens int
	// Learn, when set, is told the credentials each request is signed
	// with (the process's redactor, so a key from a profile or a role's
	// session token is masked in every log like a configured one).
	Learn func(secrets ...string)
	// PromptCache forces cachePoint blocks on (true) or off (false); nil
	// decides by model (Claude and Nova models support them).
	PromptCache *bool
}

// Provider is the Bedrock Converse implementation of llm.Provider.
type Provider struct {
	opts   Options
	signer *v4.Signer
	prefix llm.PrefixCache
}

var _ llm.Provider = (*Provider)(nil)

// New returns a provider; it does no I/O.
func New(opts Options) *Provider {
	if opts.Endpoint == "" {
		opts.Endpoint = DefaultEndpoint(opts.Region)
	}
	opts.Endpoint = strings.TrimRight(opts.Endpoint, "/")
	return &Provider{opts: opts, signer: v4.NewSigner()}
}

// DefaultEndpoint is the runtime endpoint of region.
func DefaultEndpoint(region string) string {
	return "https://bedrock-runtime." + region + ".amazonaws.com"
}

// Name implements llm.Provider.
func (p *Provider) Name() string { return name }

// Stream implements llm.Provider.
func (p *Provider) Stream(ctx context.Context, req *llm.Request, emit func(llm.Event)) (*llm.Response, error) {
	if p.opts.Region == "" {
		return nil, &llm.Error{Provider: name, Message: "no AWS region: set AWS_REGION (or a region in your AWS profile)"}
	}
	if p.opts.Credentials == nil {
		return nil, &llm.Error{Provider: name, Message: "no AWS credentials", KeyEnv: CredentialsHint}
	}
	creds, err := p.opts.Credentials.Retrieve(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, llm.Cancelled(ctx, name, err)
		}
		return nil, &llm.Error{Provider: name, Message: "no AWS credentials: " + err.Error(), KeyEnv: CredentialsHint, Err: err}
	}
	if p.opts.Learn != nil {
		p.opts.Learn(creds.SecretAccessKey, creds.SessionToken)
	}
	body, err := p.encode(req)
	if err != nil {
		return nil, err
	}
	t := p.opts.Transport
	t.HTTPClient = signingClient(t.HTTPClient, &sigV4{signer: p.signer, creds: creds, region: p.opts.Region})
	return llm.PostStream(ctx, llm.HTTPRequest{
		Transport: t,
		Provider:  name,
		KeyEnv:    CredentialsHint,
		Key:       creds.SecretAccessKey,
		Secrets:   []string{creds.SessionToken},
		URL:       p.opts.Endpoint + "/model/" + escapeLabel(req.Model) + "/converse-stream",
		Body:      body,
		ErrorType: exceptionName,
	}, func(r io.Reader) (*llm.Response, error) { return readStream(ctx, req.Model, r, emit) })
}

// exceptionName is the exception an HTTP error names in its
// x-amzn-ErrorType header ("ThrottlingException:http://internal…").
func exceptionName(h http.Header) string {
	name, _, _ := strings.Cut(h.Get("X-Amzn-Errortype"), ":")
	return name
}

// escapeLabel escapes a model id (or an inference profile's ARN) as the
// SDK escapes a path label: everything but RFC 3986's unreserved
// characters, so ":" and "/" in "arn:aws:bedrock:…/…" stay inside the one
// path segment and the signature's canonical path matches the server's.
func escapeLabel(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
