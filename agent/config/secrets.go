package config

import "strings"

// The environment variables that hold provider keys. They are spelled only
// here: the config reads them, the providers name them in 401/403 errors,
// and everything tandem starts (model-run commands, MCP servers) has them
// withheld.
const (
	AnthropicKeyEnv = "ANTHROPIC_API_KEY"
	OpenAIKeyEnv    = "OPENAI_API_KEY"
)

// IsSecretEnv reports whether the environment variable name holds one of
// tandem's own secrets. A process started on the model's behalf must not
// inherit one: the model could print it into the session history.
func IsSecretEnv(name string) bool {
	return name == AnthropicKeyEnv || name == OpenAIKeyEnv
}

// WithoutSecrets returns the "NAME=value" entries of environ whose names
// are not secrets, in their order.
func WithoutSecrets(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !IsSecretEnv(name) {
			out = append(out, kv)
		}
	}
	return out
}
