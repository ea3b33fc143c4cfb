package anthropic_test

import (
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

func newProvider(c llmtest.ProviderConfig) llm.Provider {
	return anthropic.New(anthropic.Options{APIKey: c.APIKey, BaseURL: c.BaseURL, Transport: c.Transport})
}

func TestConformance(t *testing.T) {
	llmtest.RunProviderTests(t, llmtest.Anthropic, newProvider)
}
