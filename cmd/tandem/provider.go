package main

import (
	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/openai"
)

// newProvider builds the configured provider, or nil when none is
// configured. t carries the HTTP client and retry policy (the zero value is
// the default).
func newProvider(cfg config.Config, t llm.Transport) (llm.Provider, error) {
	switch cfg.Provider {
	case "anthropic":
		if cfg.AnthropicKey == "" {
			return nil, nil
		}
		return anthropic.New(anthropic.Options{Transport: t, APIKey: cfg.AnthropicKey, BaseURL: cfg.AnthropicBaseURL}), nil
	case "openai":
		return openai.New(openai.Options{Transport: t, APIKey: cfg.OpenAIKey, BaseURL: cfg.OpenAIBaseURL}), nil
	}
	return nil, nil
}
