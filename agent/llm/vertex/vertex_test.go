package vertex_test

import (
	"testing"

	"golang.org/x/oauth2"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/vertex"
)

func conformance(publisher string) func(llmtest.ProviderConfig) llm.Provider {
	return func(c llmtest.ProviderConfig) llm.Provider {
		return vertex.New(vertex.Options{Transport: c.Transport, BaseURL: c.BaseURL, Project: "test-project", Location: "us-east5",
			TokenSource: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: c.APIKey}), Publisher: publisher})
	}
}

func TestConformanceGemini(t *testing.T) {
	llmtest.RunProviderTests(t, llmtest.VertexGemini, conformance("google"))
}

func TestConformanceAnthropic(t *testing.T) {
	llmtest.RunProviderTests(t, llmtest.VertexAnthropic, conformance("anthropic"))
}
