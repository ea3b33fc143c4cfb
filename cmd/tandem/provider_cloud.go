package main

import (
	"context"
	"errors"
	"net/http"

	"golang.org/x/oauth2"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/azure"
	"github.com/tandemhq/tandem/agent/llm/bedrock"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/internal/redact"
)

// newBedrock builds the bedrock provider on the AWS SDK's credential
// chain; the credentials are retrieved on the first request.
func newBedrock(cfg config.Config, t llm.Transport, red *redact.Redactor) (*bedrock.Provider, error) {
	creds, region, err := bedrock.Chain(context.Background(), cfg.AWS.Profile, cfg.AWS.Region)
	if err != nil {
		return nil, err
	}
	return bedrock.New(bedrock.Options{Transport: t, Region: region, Endpoint: cfg.AWS.Endpoint, ControlEndpoint: cfg.AWS.ControlEndpoint,
		Credentials: creds, Learn: red.Learn}), nil
}

// bedrockLister lists the models cfg's Bedrock account can invoke: its
// inference profiles and on-demand foundation models (bedrock.List).
func bedrockLister(cfg config.Config) func(context.Context) ([]string, error) {
	return func(ctx context.Context) ([]string, error) {
		p, err := newBedrock(cfg, llm.Transport{}, nil)
		if err != nil {
			return nil, err
		}
		return p.List(ctx)
	}
}

// newAzure builds the azure provider on the configured wire; nil when no
// endpoint or credential is configured (a login may add the key).
func newAzure(cfg config.Config, t llm.Transport, red *redact.Redactor) (llm.Provider, error) {
	a := cfg.Azure
	token := azureToken(a, t.HTTPClient)
	if a.Endpoint == "" || (a.Key == "" && token == nil) {
		return nil, nil
	}
	if cfg.Model == "" {
		return nil, errors.New("azure: no deployment: set TANDEM_MODEL (or model in config.json) to the deployment's name")
	}
	wire := azure.Responses
	if cfg.OpenAIAPI == config.OpenAIChat {
		wire = azure.Chat
	}
	return azure.New(azure.Options{Transport: t, Endpoint: a.Endpoint, APIVersion: a.APIVersion, Wire: wire, APIKey: a.Key, Token: token, Learn: red.Learn})
}

// azureLister lists cfg's Azure OpenAI deployments, the names its
// requests use as models, and teaches w the context window of the model
// each serves (the built-in table's): a deployment's name says nothing
// of its model.
func azureLister(cfg config.Config, w *models.Windows) func(context.Context) ([]string, error) {
	a := cfg.Azure
	return func(ctx context.Context) ([]string, error) {
		deps, err := azure.List(ctx, azure.Options{Endpoint: a.Endpoint, APIVersion: a.APIVersion, APIKey: a.Key, Token: azureToken(a, nil)})
		if err != nil {
			return nil, err
		}
		ids := make([]string, len(deps))
		for i, d := range deps {
			ids[i] = d.ID
			if l, ok := models.Builtin(d.Model); ok && w != nil {
				w.Learn(d.ID, l.Context)
			}
		}
		return ids, nil
	}
}

// azureToken is the Entra ID token source the configuration names: a
// token given as it is, else a service principal's; nil for neither.
func azureToken(a config.AzureOpenAI, client *http.Client) oauth2.TokenSource {
	if ts := azure.StaticToken(a.ADToken); ts != nil {
		return ts
	}
	sp := azure.ServicePrincipal{TenantID: a.TenantID, ClientID: a.ClientID, ClientSecret: a.ClientSecret, AuthorityHost: a.AuthorityHost}
	return sp.TokenSource(client)
}

// cloudBaseURL is where bedrock's and azure's requests go, for the
// learned context limits and doctor.
func cloudBaseURL(cfg config.Config) string {
	switch cfg.Provider {
	case config.Bedrock:
		if cfg.AWS.Endpoint != "" {
			return cfg.AWS.Endpoint
		}
		if cfg.AWS.Region != "" {
			return bedrock.DefaultEndpoint(cfg.AWS.Region)
		}
		return "https://bedrock-runtime.amazonaws.com"
	case config.Azure:
		return cfg.Azure.Endpoint
	}
	return ""
}
