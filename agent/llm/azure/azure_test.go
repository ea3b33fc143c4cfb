package azure_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/azure"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

func constructor(wire string) func(llmtest.ProviderConfig) llm.Provider {
	return func(c llmtest.ProviderConfig) llm.Provider {
		p, err := azure.New(azure.Options{Transport: c.Transport, Endpoint: c.BaseURL, APIKey: c.APIKey, Wire: wire})
		if err != nil {
			panic(err)
		}
		return p
	}
}

func TestConformanceResponses(t *testing.T) {
	llmtest.RunProviderTests(t, llmtest.AzureResponses, constructor(azure.Responses))
}

func TestConformanceChat(t *testing.T) {
	llmtest.RunProviderTests(t, llmtest.AzureChat, constructor(azure.Chat))
}

func hi(model string) *llm.Request {
	return &llm.Request{Model: model, Messages: []llm.Message{llm.Text(llm.RoleUser, "hi")}}
}

// Each api-version gets its paths: the v1 API's, or the deployments path
// and the version in the query (the fake answers Azure's 404 otherwise).
func TestPathsFollowTheAPIVersion(t *testing.T) {
	for _, c := range []struct{ wire, version, path, query string }{
		{azure.Responses, "", "/openai/v1/responses", ""},
		{azure.Responses, "preview", "/openai/v1/responses", "api-version=preview"},
		{azure.Responses, "2025-04-01-preview", "/openai/responses", "api-version=2025-04-01-preview"},
		{azure.Chat, "v1", "/openai/v1/chat/completions", ""},
		{azure.Chat, "2024-10-21", "/openai/deployments/my-gpt 4o/chat/completions", "api-version=2024-10-21"},
	} {
		srv := llmtest.NewServer(t)
		srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
		p, err := azure.New(azure.Options{Endpoint: srv.URL + "/", APIVersion: c.version, Wire: c.wire, APIKey: "azure-key-0123456789abcdef"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Stream(context.Background(), hi("my-gpt 4o"), func(llm.Event) {}); err != nil {
			t.Fatalf("%s %s: %v", c.wire, c.version, err)
		}
		r := srv.Requests()[0]
		if r.Path != c.path || r.Model != "my-gpt 4o" || p.Name() != "azure" {
			t.Errorf("%s %s: path %q model %q, want %q", c.wire, c.version, r.Path, r.Model, c.path)
		}
	}
}

// An Entra ID token is fetched with the client-credentials flow from the
// authority (a fake here), sent as a Bearer token, and reused.
func TestEntraToken(t *testing.T) {
	var fetched atomic.Int32
	login := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/tenant-1/oauth2/v2.0/token" || r.Form.Get("grant_type") != "client_credentials" || r.Form.Get("client_id") != "app-1" ||
			r.Form.Get("client_secret") != "client-SECRET-value-0123" || r.Form.Get("scope") != azure.Scope {
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]string{"error": "invalid_client", "error_description": "AADSTS7000215: Invalid client secret provided."})
			return
		}
		fetched.Add(1)
		json.NewEncoder(w).Encode(map[string]any{"token_type": "Bearer", "expires_in": 3599, "access_token": "eyJ0eXAiOiJKV1QiEXAMPLEtoken"})
	}))
	defer login.Close()
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"one"}}, llmtest.Reply{Text: []string{"two"}})
	sp := azure.ServicePrincipal{TenantID: "tenant-1", ClientID: "app-1", ClientSecret: "client-SECRET-value-0123", AuthorityHost: login.URL}
	p, err := azure.New(azure.Options{Endpoint: srv.URL, Token: sp.TokenSource(nil)})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := p.Stream(context.Background(), hi("dep"), func(llm.Event) {}); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range srv.Requests() {
		if r.Header.Get("Authorization") != "Bearer eyJ0eXAiOiJKV1QiEXAMPLEtoken" || r.Header.Get("Api-Key") != "" {
			t.Errorf("headers %v", r.Header)
		}
	}
	if fetched.Load() != 1 {
		t.Errorf("token fetched %d times, want once", fetched.Load())
	}

	sp.ClientSecret = "wrong-SECRET-value-0123"
	p, _ = azure.New(azure.Options{Endpoint: srv.URL, Token: sp.TokenSource(nil)})
	_, err = p.Stream(context.Background(), hi("dep"), func(llm.Event) {})
	var e *llm.Error
	if !errors.As(err, &e) || e.Status != http.StatusUnauthorized || !strings.Contains(err.Error(), "AADSTS7000215") || !strings.Contains(err.Error(), "AZURE_CLIENT_SECRET") {
		t.Errorf("err = %v, want a 401 with the authority's reason naming the variables", err)
	}
	if len(srv.Requests()) != 2 {
		t.Errorf("a request was sent without a token")
	}
}

// Azure's refusals keep their kinds: a content filter is a 400 with its
// code, a rate limit is retried after Azure's Retry-After.
func TestAzureErrors(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Status: 400, Message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy."})
	p, _ := azure.New(azure.Options{Endpoint: srv.URL, APIKey: "azure-key-0123456789abcdef"})
	_, err := p.Stream(context.Background(), hi("dep"), func(llm.Event) {})
	var e *llm.Error
	if !errors.As(err, &e) || e.Status != 400 || e.Retryable || !strings.Contains(e.Message, "content management policy") || e.Provider != "azure" {
		t.Errorf("err = %v (%+v)", err, e)
	}
}

func TestEndpointMustBeAURL(t *testing.T) {
	if _, err := azure.New(azure.Options{Endpoint: "my-resource", APIKey: "k"}); err == nil || !strings.Contains(err.Error(), "AZURE_OPENAI_ENDPOINT") {
		t.Errorf("err = %v", err)
	}
	if _, err := azure.New(azure.Options{Endpoint: "https://x.openai.azure.com"}); err == nil || !strings.Contains(err.Error(), "AZURE_OPENAI_API_KEY") {
		t.Errorf("err = %v", err)
	}
}
