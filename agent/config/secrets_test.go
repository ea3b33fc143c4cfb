package config

import "testing"

func TestIsSecretEnv(t *testing.T) {
	for name, want := range map[string]bool{
		"ANTHROPIC_API_KEY": true, "OPENAI_API_KEY": true,
		"PATH": false, "ANTHROPIC_BASE_URL": false, "anthropic_api_key": false, "OPENAI_API_KEY_HINT": false,
	} {
		if got := IsSecretEnv(name); got != want {
			t.Errorf("IsSecretEnv(%q) = %v, want %v", name, got, want)
		}
	}
}
