package responses_test

import (
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/responses"
)

func newProvider(c llmtest.ProviderConfig) llm.Provider {
	return responses.New(responses.Options{Transport: c.Transport, APIKey: c.APIKey, BaseURL: c.BaseURL})
}

func TestConformance(t *testing.T) {
	llmtest.RunProviderTests(t, llmtest.Responses, newProvider)
}
