package azure_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/azure"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestListDeployments: the picker gets the resource's deployments that
// are ready (a deployment still creating is left out), asked with the
// resource's key at any configured api-version (the listing has its own)
// and endpoint spelling.
func TestListDeployments(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ServeAzureDeployments(llmtest.AzureDeployment{ID: "gpt5-prod", Model: "gpt-5"},
		llmtest.AzureDeployment{ID: "mini", Model: "gpt-4o-mini"},
		llmtest.AzureDeployment{ID: "next", Model: "gpt-5", Status: "creating"})
	got, err := azure.List(context.Background(), azure.Options{Endpoint: srv.URL + "/openai/", APIKey: "azure-KEY-0123456789", APIVersion: "preview"})
	if err != nil {
		t.Fatal(err)
	}
	want := []azure.Deployment{{ID: "gpt5-prod", Model: "gpt-5"}, {ID: "mini", Model: "gpt-4o-mini"}}
	if !slices.Equal(got, want) {
		t.Errorf("deployments = %+v, want %+v", got, want)
	}
	if h := srv.ModelsHeaders(); len(h) != 1 || h[0].Get("Api-Key") != "azure-KEY-0123456789" {
		t.Errorf("listing headers: %v", h)
	}
}

// With no credential or no endpoint URL nothing is asked, and the error
// says what to set.
func TestListDeploymentsNeedsAResource(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ServeAzureDeployments(llmtest.AzureDeployment{ID: "gpt5-prod", Model: "gpt-5"})
	_, err := azure.List(context.Background(), azure.Options{Endpoint: "http://" + strings.TrimPrefix(srv.URL, "http://"), APIKey: ""})
	if err == nil || !strings.Contains(err.Error(), "no credential") {
		t.Errorf("without a credential: %v", err)
	}
	_, err = azure.List(context.Background(), azure.Options{Endpoint: "not a url", APIKey: "k"})
	if err == nil || !strings.Contains(err.Error(), "is not a URL") {
		t.Errorf("a bad endpoint: %v", err)
	}
}
