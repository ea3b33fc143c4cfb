package acp

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestBedrockModelsOffered: with TANDEM_PROVIDER=bedrock, the model
// selector offers the configured model, then what the account can invoke
// as Bedrock's control plane lists it (SigV4-signed, checked by the
// fake): inference profiles, then on-demand text models.
func TestBedrockModelsOffered(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ServeBedrockModels(
		llmtest.BedrockModel{ID: "us.anthropic.claude-opus-4-1-20250805-v1:0", Profile: true},
		llmtest.BedrockModel{ID: "us.anthropic.claude-sonnet-4-20250514-v1:0", Profile: true},
		llmtest.BedrockModel{ID: "anthropic.claude-opus-4-1-20250805-v1:0"},
		llmtest.BedrockModel{ID: "amazon.nova-pro-v1:0", OnDemand: true},
		llmtest.BedrockModel{ID: "amazon.titan-embed-text-v2:0", OnDemand: true, Embedding: true})
	home := t.TempDir()
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = append(bedrockEnv(home, srv.URL, ""), "AWS_ENDPOINT_URL_BEDROCK="+srv.URL)
	p := startCmd(t, cmd, srv, home, newEditor(t))
	p.initialize(t, true, true)
	ns := p.sessionOffering(t, workspace(t, nil))
	want := []string{"us.anthropic.claude-sonnet-4-20250514-v1:0", "us.anthropic.claude-opus-4-1-20250805-v1:0", "amazon.nova-pro-v1:0"}
	if got := modelValues(ns.ConfigOptions); !slices.Equal(got, want) {
		t.Fatalf("models offered: %s", strings.Join(got, ","))
	}
	if len(srv.Requests()) != 0 {
		t.Error("listing the models sent a model request")
	}
}

// TestAzureDeploymentsOffered: with TANDEM_PROVIDER=azure, the model
// selector offers the resource's deployments (asked with its key), and a
// prompt on one picked there goes to it.
func TestAzureDeploymentsOffered(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ServeAzureDeployments(llmtest.AzureDeployment{ID: "o4-mini-prod", Model: "o4-mini"},
		llmtest.AzureDeployment{ID: "gpt5-prod", Model: "gpt-5"},
		llmtest.AzureDeployment{ID: "gpt5-next", Model: "gpt-5", Status: "creating"})
	srv.Enqueue(llmtest.Reply{Text: []string{"from gpt-5"}})
	home := t.TempDir()
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = append(withoutKeys(testenv.ModelEnv(home, srv.URL)), "TANDEM_PROVIDER=azure", "TANDEM_MODEL=o4-mini-prod",
		"AZURE_OPENAI_ENDPOINT="+srv.URL, "AZURE_OPENAI_API_KEY=azure-list-KEY-0123456789", "OPENAI_API_VERSION=",
		"TANDEM_OPENAI_API=", "AZURE_OPENAI_AD_TOKEN=", "AZURE_CLIENT_SECRET=")
	p := startCmd(t, cmd, srv, home, newEditor(t))
	p.initialize(t, true, true)
	ns := p.sessionOffering(t, workspace(t, nil))
	if got := modelValues(ns.ConfigOptions); !slices.Equal(got, []string{"o4-mini-prod", "gpt5-prod"}) {
		t.Fatalf("models offered: %s", strings.Join(got, ","))
	}
	if h := srv.ModelsHeaders(); len(h) == 0 || h[0].Get("Api-Key") != "azure-list-KEY-0123456789" {
		t.Errorf("the listing's headers: %v", h)
	}
	if _, err := p.conn.SetSessionConfigOption(ctxT(t), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: ns.SessionId, ConfigId: "model", Value: "gpt5-prod"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.prompt(t, ns.SessionId, "hi"); err != nil {
		t.Fatal(err)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Model != "gpt5-prod" || reqs[0].Path != "/openai/v1/responses" {
		t.Errorf("requests: %d", len(reqs))
	}
}

// TestListedOutputLimitCapsTheRequest: a model picked from the Gemini
// listing is asked for no more output tokens than the listing states for
// it (32768 here, below both config.json's maxTokens and the table's
// figure for the family): the listing is the provider's word.
func TestListedOutputLimitCapsTheRequest(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ServeGeminiModels(llmtest.GeminiModel{ID: "gemini-2.5-pro", Input: 1_048_576, Output: 65_536},
		llmtest.GeminiModel{ID: "gemini-2.5-flash-lite", Input: 1_048_576, Output: 32_768})
	srv.Enqueue(llmtest.Reply{Text: []string{"brief"}})
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"maxTokens": 100000}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(testenv.Tandem(t), "acp")
	cmd.Env = append(withoutKeys(testenv.ModelEnv(home, srv.URL)), "TANDEM_PROVIDER=gemini",
		"GEMINI_API_KEY=AIzaSyTANDEM-limit-test-0123", "GOOGLE_GEMINI_BASE_URL="+srv.URL, "TANDEM_MODEL=gemini-2.5-pro")
	p := startCmd(t, cmd, srv, home, newEditor(t))
	p.initialize(t, true, true)
	ns := p.sessionOffering(t, workspace(t, nil))
	if _, err := p.conn.SetSessionConfigOption(ctxT(t), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: ns.SessionId, ConfigId: "model", Value: "gemini-2.5-flash-lite"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.prompt(t, ns.SessionId, "hi"); err != nil {
		t.Fatal(err)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Model != "gemini-2.5-flash-lite" || reqs[0].MaxTokens != 32_768 {
		t.Fatalf("%d requests; want one to gemini-2.5-flash-lite asking for 32768 tokens: %+v", len(reqs), reqs)
	}
}
