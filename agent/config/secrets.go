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

// LooksSecretEnv reports whether a variable's name says it holds a
// credential: *_TOKEN, *_SECRET, *_KEY, *PASSWORD*, and the cloud
// providers' credentials (AWS_*, AZURE_*, GOOGLE_APPLICATION_CREDENTIALS).
// Names are compared upper-cased, as shells do not fold case but users do.
func LooksSecretEnv(name string) bool {
	n := strings.ToUpper(name)
	for _, suffix := range []string{"_TOKEN", "_SECRET", "_KEY"} {
		if strings.HasSuffix(n, suffix) {
			return true
		}
	}
	return strings.Contains(n, "PASSWORD") || strings.Contains(n, "PASSWD") ||
		strings.HasPrefix(n, "AWS_") || strings.HasPrefix(n, "AZURE_") ||
		n == "GOOGLE_APPLICATION_CREDENTIALS"
}

// WithoutSecrets returns the "NAME=value" entries of environ whose names
// are not secrets, in their order.
func WithoutSecrets(environ []string) []string {
	return filterEnv(environ, func(name string) bool { return !IsSecretEnv(name) })
}

// CommandEnv is the environment for a command the model runs: environ
// without tandem's keys and without secret-looking variables unless allow
// names them. Provider keys stay out even when allowed.
func CommandEnv(environ, allow []string) []string {
	ok := make(map[string]bool, len(allow))
	for _, a := range allow {
		ok[a] = true
	}
	return filterEnv(environ, func(name string) bool {
		return !IsSecretEnv(name) && (ok[name] || !LooksSecretEnv(name))
	})
}

func filterEnv(environ []string, keep func(string) bool) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if keep(name) {
			out = append(out, kv)
		}
	}
	return out
}
