package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// Bedrock: doctor retrieves the credentials through the AWS chain (from
// a profile in a config file made here) and names their source and the
// region without calling a model; --online then sends one signed request.
// A missing profile fails with the SDK's reason.
func TestDoctorBedrock(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"OK"}})
	home, work := t.TempDir(), t.TempDir()
	creds := writeFile(t, t.TempDir(), "credentials", "[work]\naws_access_key_id = "+llmtest.AWSAccessKeyID+"\naws_secret_access_key = "+llmtest.AWSSecretKey+"\n")
	conf := writeFile(t, t.TempDir(), "config", "[profile work]\nregion = "+llmtest.AWSRegion+"\n")
	env := []string{"HOME=" + home, "TANDEM_HOME=" + home, "TANDEM_PROVIDER=bedrock", "AWS_PROFILE=work",
		"AWS_SHARED_CREDENTIALS_FILE=" + creds, "AWS_CONFIG_FILE=" + conf, "AWS_EC2_METADATA_DISABLED=true",
		"AWS_ENDPOINT_URL_BEDROCK_RUNTIME=" + srv.URL}
	lines, _ := doctorRun(t, work, env, "--online")
	expectLine(t, lines, "provider", "✓", "bedrock", "credentials from SharedConfigCredentials", "region us-east-1", srv.URL)
	expectLine(t, lines, "model", "✓", "global.anthropic.claude-sonnet-4-5", "200,000")
	expectLine(t, lines, "online", "✓", "answered")
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d model requests, want only --online's", n)
	}
	for _, l := range lines {
		if strings.Contains(l, llmtest.AWSSecretKey) {
			t.Errorf("the secret key is shown: %s", l)
		}
	}

	env[3] = "AWS_PROFILE=missing"
	lines, code := doctorRun(t, work, env)
	expectLine(t, lines, "provider", "✗", "bedrock", "missing")
	if code == 0 {
		t.Error("doctor passed without credentials")
	}
}

// Azure: doctor names the wire, api-version and deployment; with a
// service principal it fetches an Entra ID token (from a fake authority)
// and says when the authority refuses.
func TestDoctorAzure(t *testing.T) {
	login := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		if r.Form.Get("client_secret") != "client-SECRET-value-0123" {
			w.WriteHeader(http.StatusUnauthorized)
			json.NewEncoder(w).Encode(map[string]string{"error": "invalid_client", "error_description": "AADSTS7000215: Invalid client secret provided."})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"token_type": "Bearer", "expires_in": 3599, "access_token": "eyJ0eXAiOiJKV1QiDOCTORtoken"})
	}))
	defer login.Close()
	home, work := t.TempDir(), t.TempDir()
	env := []string{"HOME=" + home, "TANDEM_HOME=" + home, "AZURE_OPENAI_ENDPOINT=https://r.openai.azure.com", "TANDEM_MODEL=gpt-5-prod",
		"OPENAI_API_VERSION=2025-04-01-preview", "TANDEM_OPENAI_API=chat", "AZURE_TENANT_ID=t1", "AZURE_CLIENT_ID=app-1",
		"AZURE_CLIENT_SECRET=client-SECRET-value-0123", "AZURE_AUTHORITY_HOST=" + login.URL}
	lines, _ := doctorRun(t, work, env)
	expectLine(t, lines, "provider", "✓", "azure, Chat Completions, api-version 2025-04-01-preview, deployment gpt-5-prod", "Entra ID token for client app-1")

	env[8] = "AZURE_CLIENT_SECRET=wrong-SECRET-value-0123"
	lines, _ = doctorRun(t, work, env)
	expectLine(t, lines, "provider", "✗", "AADSTS7000215")
	if strings.Contains(lines["provider"], "wrong-SECRET-value-0123") {
		t.Errorf("the client secret is shown: %s", lines["provider"])
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
