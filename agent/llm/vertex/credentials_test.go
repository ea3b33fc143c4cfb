package vertex_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/vertex"
)

// A service account's key file gets a token from its token endpoint (a
// JWT signed with its key), the token goes with every request as a bearer
// token and to the redactor first, it is fetched once while it lasts, and
// the project comes from the key file when none is configured.
func TestServiceAccountCredentials(t *testing.T) {
	t.Parallel()
	path, ts := llmtest.ServiceAccount(t)
	srv := llmtest.NewServer(t)
	srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"hi"}} })
	var learned []string
	p := vertex.New(vertex.Options{BaseURL: srv.URL, Location: "europe-west4", CredentialsFile: path,
		Learn: func(s string) { learned = append(learned, s) }})
	for _, model := range []string{"gemini-2.5-pro", "claude-sonnet-4-5@20250929", "gemini-2.5-flash"} {
		if _, err := p.Stream(context.Background(), &llm.Request{Model: model, MaxTokens: 100, Messages: []llm.Message{llm.Text(llm.RoleUser, "q")}}, func(llm.Event) {}); err != nil {
			t.Fatalf("%s: %v", model, err)
		}
	}
	reqs := srv.Requests()
	wantPaths := []string{
		"/v1/projects/sa-project/locations/europe-west4/publishers/google/models/gemini-2.5-pro:streamGenerateContent",
		"/v1/projects/sa-project/locations/europe-west4/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict",
		"/v1/projects/sa-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash:streamGenerateContent",
	}
	issued := ts.Issued()
	for i, r := range reqs {
		if r.Path != wantPaths[i] || len(issued) != 1 || r.Header.Get("Authorization") != "Bearer "+issued[0] {
			t.Errorf("request %d: %s with %q", i, r.Path, r.Header.Get("Authorization"))
		}
	}
	if reqs[1].Format != llmtest.VertexAnthropic || reqs[1].Model != "claude-sonnet-4-5@20250929" {
		t.Errorf("claude request = %+v", reqs[1])
	}
	if len(learned) != 1 || learned[0] != issued[0] {
		t.Errorf("learned %q, issued %q", learned, issued)
	}
	if c := ts.Claims(); c["iss"] != "tandem-test@sa-project.iam.gserviceaccount.com" || c["scope"] != vertex.Scope || c["aud"] != ts.URL {
		t.Errorf("JWT claims = %v", c)
	}
}

// A refused credential is an error naming the variable to fix, without
// the key; missing credentials say how to log in.
func TestCredentialFailures(t *testing.T) {
	t.Parallel()
	path, ts := llmtest.ServiceAccount(t)
	ts.Refuse(http.StatusBadRequest)
	srv := llmtest.NewServer(t)
	req := &llm.Request{Model: "gemini-2.5-pro", Messages: []llm.Message{llm.Text(llm.RoleUser, "q")}}
	p := vertex.New(vertex.Options{BaseURL: srv.URL, Project: "p", CredentialsFile: path})
	_, err := p.Stream(context.Background(), req, func(llm.Event) {})
	var e *llm.Error
	if !errors.As(err, &e) || e.KeyEnv != "GOOGLE_APPLICATION_CREDENTIALS" || e.Status != 400 || e.Provider != "vertex" || strings.Contains(err.Error(), "PRIVATE KEY") {
		t.Errorf("err = %v (%+v)", err, e)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"type":"something_else"}`), 0o600)
	_, err = vertex.New(vertex.Options{BaseURL: srv.URL, Project: "p", CredentialsFile: bad}).Stream(context.Background(), req, func(llm.Event) {})
	if !errors.As(err, &e) || e.KeyEnv != "GOOGLE_APPLICATION_CREDENTIALS" || !strings.Contains(err.Error(), "gcloud auth application-default login") {
		t.Errorf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d model requests sent without a token", n)
	}
}
