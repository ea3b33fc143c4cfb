package acp

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

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
	ns := p.sessionOffering(t, workspace(t, nil), "amazon.nova-pro-v1:0")
	want := []string{"us.anthropic.claude-sonnet-4-20250514-v1:0", "us.anthropic.claude-opus-4-1-20250805-v1:0", "amazon.nova-pro-v1:0"}
	if got := modelValues(ns.ConfigOptions); !slices.Equal(got, want) {
		t.Fatalf("models offered: %s", strings.Join(got, ","))
	}
	if len(srv.Requests()) != 0 {
		t.Error("listing the models sent a model request")
	}
}
