package vertex

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/internal/redact"
)

// Scope is the OAuth2 scope Vertex AI's requests need.
const Scope = "https://www.googleapis.com/auth/cloud-platform"

// tokenTimeout bounds one token request: oauth2.TokenSource takes no
// context, so a stuck token endpoint could otherwise hold a turn forever.
const tokenTimeout = 30 * time.Second

// credentials finds Google credentials on first use and hands out their
// access tokens. A failed lookup is tried again on the next request (the
// user may log in meanwhile); a found one is kept.
type credentials struct {
	file    string // a credentials JSON file; "" for the application defaults
	project string // configured; else the credentials'
	source  oauth2.TokenSource
	learn   func(string)
	client  *http.Client // fetches tokens

	mu      sync.Mutex // guards the fields below
	ts      oauth2.TokenSource
	found   string // the credentials' project, used when none is configured
	learned string // the last token handed to learn
}

// errHint is what to do when no credentials are found.
const errHint = "run `gcloud auth application-default login`, or set " + config.GoogleCredentialsEnv + " to a service account's key file"

// token returns a valid access token, found or renewed as needed, and
// the project to use; failures are *llm.Error naming the credentials.
func (c *credentials) token(ctx context.Context) (string, string, error) {
	ts, project, err := c.tokenSource(ctx)
	if err != nil {
		return "", "", c.fail(0, "no Google Cloud credentials: "+err.Error()+"; "+errHint, err)
	}
	if project == "" {
		return "", "", &llm.Error{Provider: name, Message: "no Google Cloud project: set " + config.GoogleProjectEnv + " (or googleCloudProject in config.json)"}
	}
	tok, err := ts.Token()
	if err != nil {
		if ctx.Err() != nil {
			return "", "", llm.Cancelled(ctx, name, ctx.Err())
		}
		var re *oauth2.RetrieveError
		status, msg := 0, strings.ReplaceAll(err.Error(), "\n", " ")
		if errors.As(err, &re) && re.Response != nil {
			status = re.Response.StatusCode
			if re.ErrorCode != "" {
				msg = "the token endpoint refused the credentials: " + strings.TrimSuffix(re.ErrorCode+": "+re.ErrorDescription, ": ")
			}
		}
		return "", "", c.fail(status, "getting a Google Cloud access token: "+msg, err)
	}
	c.mu.Lock()
	fresh := tok.AccessToken != c.learned
	c.learned = tok.AccessToken
	c.mu.Unlock()
	if fresh && c.learn != nil {
		c.learn(tok.AccessToken)
	}
	return tok.AccessToken, project, nil
}

// fail is a credential failure as the provider reports it: a refusal by
// the token endpoint (4xx) names the credentials to fix; a server or
// network failure may pass, and is worth trying again.
func (c *credentials) fail(status int, msg string, err error) error {
	e := &llm.Error{Provider: name, Status: status, Message: redact.New().Text(msg), Err: err, Retryable: status >= 500}
	if status == 0 || status/100 == 4 {
		e.KeyEnv = config.GoogleCredentialsEnv
	}
	return e
}

func (c *credentials) tokenSource(ctx context.Context) (oauth2.TokenSource, string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ts != nil {
		return c.ts, cmp.Or(c.project, c.found), nil
	}
	if c.source != nil {
		c.ts = c.source
		return c.ts, c.project, nil
	}
	// Tokens are fetched with a bounded client, under no caller's context:
	// the source outlives the request that first needed it.
	tctx := context.WithValue(context.Background(), oauth2.HTTPClient, c.client)
	params := google.CredentialsParams{Scopes: []string{Scope}}
	var creds *google.Credentials
	var err error
	if c.file != "" {
		creds, err = fromFile(tctx, c.file, params)
	} else {
		creds, err = google.FindDefaultCredentialsWithParams(tctx, params)
	}
	if err != nil {
		return nil, "", err
	}
	c.ts, c.found = creds.TokenSource, creds.ProjectID
	return c.ts, cmp.Or(c.project, c.found), nil
}

// fromFile reads a credentials file of the kinds gcloud and the console
// write: a service account's key, an authorized user's refresh token, an
// external account (workload identity federation) or an impersonated
// service account. The file is the user's own configuration, named by
// them, and its type is checked against those kinds.
func fromFile(ctx context.Context, path string, params google.CredentialsParams) (*google.Credentials, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s is not a credentials file: %w", path, err)
	}
	switch t := google.CredentialsType(f.Type); t {
	case google.ServiceAccount, google.AuthorizedUser, google.ExternalAccount, google.ImpersonatedServiceAccount:
		return google.CredentialsFromJSONWithTypeAndParams(ctx, b, t, params)
	}
	return nil, fmt.Errorf("%s holds credentials of type %q, which tandem does not use", path, f.Type)
}

// tokenClient is the client tokens are fetched with.
func tokenClient(base *http.Client) *http.Client {
	c := &http.Client{Timeout: tokenTimeout}
	if base != nil {
		c.Transport = base.Transport
	}
	return c
}
