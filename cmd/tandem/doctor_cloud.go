package main

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm/bedrock"
)

// checkCloud is checkProvider for bedrock and azure; ok is false for
// other providers. Neither spends tokens: Bedrock's credentials are
// retrieved through the AWS chain (an SSO or role session is refreshed,
// nothing is sent to Bedrock), Azure's endpoint and credential are
// checked for form and an Entra ID token is fetched.
func (d *doctor) checkCloud(ctx context.Context) (_ []finding, ok bool) {
	c := d.cfg
	switch c.Provider {
	case config.Bedrock:
		creds, region, err := bedrock.Chain(ctx, c.AWS.Profile, c.AWS.Region)
		if err != nil {
			return []finding{{levelFail, "provider", "bedrock: " + err.Error(), "check AWS_PROFILE and ~/.aws/config"}}, true
		}
		if region == "" {
			return []finding{{levelFail, "provider", "bedrock without a region", "export AWS_REGION=us-east-1 (or set region in your AWS profile)"}}, true
		}
		ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		got, err := creds.Retrieve(ctx)
		if err != nil {
			return []finding{{levelFail, "provider", "bedrock: no AWS credentials: " + d.m.red.Text(err.Error()),
				"aws configure, aws sso login, or export AWS_PROFILE / AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"}}, true
		}
		d.m.red.Learn(got.SecretAccessKey, got.SessionToken)
		detail := fmt.Sprintf("bedrock (credentials from %s, region %s, %s)", got.Source, region, cloudBaseURL(withRegion(c, region)))
		if got.CanExpire {
			detail += fmt.Sprintf(", expiring in %s", time.Until(got.Expires).Round(time.Minute))
		}
		return []finding{{levelOK, "provider", detail, ""}}, true
	case config.Azure:
		a := c.Azure
		u, err := url.Parse(a.Endpoint)
		switch {
		case a.Endpoint == "":
			return []finding{{levelFail, "provider", "azure without an endpoint", "export " + config.AzureEndpointEnv + "=https://<resource>.openai.azure.com"}}, true
		case err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "":
			return []finding{{levelFail, "provider", "azure endpoint " + a.Endpoint + " is not a URL", "export " + config.AzureEndpointEnv + "=https://<resource>.openai.azure.com"}}, true
		case c.Model == "":
			return []finding{{levelFail, "provider", "azure without a deployment", "export TANDEM_MODEL=<deployment name>"}}, true
		}
		token := azureToken(a, nil)
		if a.Key == "" && token == nil {
			return []finding{{levelFail, "provider", "azure without a credential",
				"tandem login --provider azure, or export " + config.AzureKeyEnv + "=…, " + config.AzureADTokenEnv + "=… or AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET"}}, true
		}
		if a.Key == "" {
			tok, err := token.Token()
			if err != nil {
				return []finding{{levelFail, "provider", "azure: getting an Entra ID token: " + d.m.red.Text(err.Error()), "check AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET"}}, true
			}
			d.m.red.Learn(tok.AccessToken)
		}
		wire := "Responses API"
		if c.OpenAIAPI == config.OpenAIChat {
			wire = "Chat Completions"
		}
		version := a.APIVersion
		if version == "" {
			version = "v1"
		}
		return []finding{{levelOK, "provider", fmt.Sprintf("azure, %s, api-version %s, deployment %s (%s, %s)", wire, version, c.Model, azureCredential(a), a.Endpoint), ""}}, true
	}
	return nil, false
}

func withRegion(c config.Config, region string) config.Config {
	c.AWS.Region = region
	return c
}

// azureCredential says which credential azure uses, without showing it.
func azureCredential(a config.AzureOpenAI) string {
	switch {
	case a.Key != "":
		return "api-key"
	case a.ADToken != "":
		return "Entra ID token from " + config.AzureADTokenEnv
	}
	return "Entra ID token for client " + a.ClientID
}
