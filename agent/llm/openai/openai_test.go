package openai_test

import (
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/openai"
)

func newProvider(c llmtest.ProviderConfig) llm.Provider {
	return openai.New(openai.Options{APIKey: c.APIKey, BaseURL: c.BaseURL, Transport: c.Transport})
}

func TestConformance(t *testing.T) {
	llmtest.RunProviderTests(t, llmtest.OpenAI, newProvider)
}
