package config

import (
	"slices"
	"testing"
)

func TestWithoutSecrets(t *testing.T) {
	in := []string{"PATH=/bin", AnthropicKeyEnv + "=sk-a", "OPENAI_API_KEY=sk-o", "ANTHROPIC_API_KEY_HINT=x", "EMPTY="}
	got := WithoutSecrets(in)
	want := []string{"PATH=/bin", "ANTHROPIC_API_KEY_HINT=x", "EMPTY="}
	if !slices.Equal(got, want) {
		t.Errorf("WithoutSecrets = %q, want %q", got, want)
	}
}
