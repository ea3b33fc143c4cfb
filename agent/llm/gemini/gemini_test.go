package gemini_test

import (
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/gemini"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

func newProvider(c llmtest.ProviderConfig) llm.Provider {
	return gemini.New(gemini.Options{Transport: c.Transport, APIKey: c.APIKey, BaseURL: c.BaseURL})
}

func TestConformance(t *testing.T) {
	llmtest.RunProviderTests(t, llmtest.Gemini, newProvider)
}
