package bedrock_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/tandemhq/tandem/agent/llm/bedrock"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

func lister(srv *llmtest.Server, secret string) *bedrock.Provider {
	return bedrock.New(bedrock.Options{Region: llmtest.AWSRegion, ControlEndpoint: srv.URL,
		Credentials: credentials.NewStaticCredentialsProvider(llmtest.AWSAccessKeyID, secret, "")})
}

// TestListOffersWhatCanBeInvoked: the picker gets the active inference
// profiles (every page) and then the foundation models invocable on
// demand by their own id; a model served through profiles only, an
// embedding model and a legacy one are left out. The fake checks each
// listing's SigV4 signature with the SDK's signer.
func TestListOffersWhatCanBeInvoked(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ServeBedrockModels(
		llmtest.BedrockModel{ID: "us.anthropic.claude-sonnet-4-20250514-v1:0", Profile: true},
		llmtest.BedrockModel{ID: "us.anthropic.claude-3-haiku-20240307-v1:0", Profile: true, Legacy: true},
		llmtest.BedrockModel{ID: "global.anthropic.claude-sonnet-4-5-20250929-v1:0", Profile: true},
		llmtest.BedrockModel{ID: "anthropic.claude-sonnet-4-20250514-v1:0"},
		llmtest.BedrockModel{ID: "amazon.nova-pro-v1:0", OnDemand: true},
		llmtest.BedrockModel{ID: "amazon.titan-embed-text-v2:0", OnDemand: true, Embedding: true},
		llmtest.BedrockModel{ID: "meta.llama3-70b-instruct-v1:0", OnDemand: true, Legacy: true},
	)
	ids, err := lister(srv, llmtest.AWSSecretKey).List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"us.anthropic.claude-sonnet-4-20250514-v1:0", "global.anthropic.claude-sonnet-4-5-20250929-v1:0", "amazon.nova-pro-v1:0"}
	if !slices.Equal(ids, want) {
		t.Errorf("listed %q, want %q", ids, want)
	}
	h := srv.ModelsHeaders()
	if len(h) != 4 || !strings.HasPrefix(h[0].Get("Authorization"), "AWS4-HMAC-SHA256 Credential="+llmtest.AWSAccessKeyID+"/") || h[0].Get("Accept") != "application/json" {
		t.Errorf("%d listing requests, first signed %q", len(h), h[0].Get("Authorization"))
	}
}

// A signature made with the wrong secret is refused by both listings;
// the error says so and shows no secret.
func TestListRefusedSignature(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ServeBedrockModels(llmtest.BedrockModel{ID: "amazon.nova-pro-v1:0", OnDemand: true})
	const wrong = "wrong-secret-0123456789abcdef0123456789"
	ids, err := lister(srv, wrong).List(context.Background())
	if err == nil || !strings.Contains(err.Error(), "HTTP 403") || strings.Contains(err.Error(), wrong) {
		t.Fatalf("List = %q, %v", ids, err)
	}
}
