package azure

import (
	"cmp"
	"context"
	"net/http"
	"strings"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// DefaultAuthorityHost is Microsoft Entra ID's public cloud
// (AZURE_AUTHORITY_HOST names another: a sovereign cloud, or a test's).
const DefaultAuthorityHost = "https://login.microsoftonline.com"

// ServicePrincipal is an Entra ID application's client-secret credential,
// in the variables Azure's identity libraries read.
type ServicePrincipal struct {
	TenantID, ClientID, ClientSecret string
	AuthorityHost                    string // "": DefaultAuthorityHost
}

// TokenSource returns a source of tokens for Azure OpenAI fetched with the
// client-credentials flow and reused until they expire, or nil when sp is
// incomplete. client sends the token requests (nil: the default).
//
// Chosen over azidentity: the client-credentials flow is one POST, which
// x/oauth2 (already a dependency) does and caches; azidentity brings MSAL
// and a dozen modules for the managed-identity and CLI credentials, which
// a user can turn into a token for AZURE_OPENAI_AD_TOKEN
// (az account get-access-token --resource https://cognitiveservices.azure.com).
func (sp ServicePrincipal) TokenSource(client *http.Client) oauth2.TokenSource {
	if sp.TenantID == "" || sp.ClientID == "" || sp.ClientSecret == "" {
		return nil
	}
	host := strings.TrimRight(cmp.Or(sp.AuthorityHost, DefaultAuthorityHost), "/")
	cc := clientcredentials.Config{
		ClientID:     sp.ClientID,
		ClientSecret: sp.ClientSecret,
		TokenURL:     host + "/" + sp.TenantID + "/oauth2/v2.0/token",
		Scopes:       []string{Scope},
		AuthStyle:    oauth2.AuthStyleInParams,
	}
	ctx := context.Background()
	if client != nil {
		ctx = context.WithValue(ctx, oauth2.HTTPClient, client)
	}
	return cc.TokenSource(ctx)
}

// StaticToken is a token given as it is (AZURE_OPENAI_AD_TOKEN); nil for "".
func StaticToken(token string) oauth2.TokenSource {
	if token == "" {
		return nil
	}
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token, TokenType: "Bearer"})
}
