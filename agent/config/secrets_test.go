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

func TestCommandEnv(t *testing.T) {
	in := []string{"PATH=/bin", "GITHUB_TOKEN=g", "NPM_TOKEN=n", "AWS_ACCESS_KEY_ID=a", "AZURE_CLIENT_SECRET=z",
		"GOOGLE_APPLICATION_CREDENTIALS=/k.json", "DB_PASSWORD=p", "STRIPE_SECRET=s", "SSH_KEY=k",
		"ANTHROPIC_API_KEY=sk", "OPENAI_API_KEY=sk2", "HOME=/root", "KEYBOARD=us"}
	got := CommandEnv(in, []string{"NPM_TOKEN", "ANTHROPIC_API_KEY"})
	want := []string{"PATH=/bin", "NPM_TOKEN=n", "HOME=/root", "KEYBOARD=us"}
	if !slices.Equal(got, want) {
		t.Errorf("CommandEnv = %q, want %q", got, want)
	}
}
