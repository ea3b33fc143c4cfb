package config

import (
	"net/url"
	"strings"

	"github.com/tandemhq/tandem/internal/redact"
)

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
	return name == AnthropicKeyEnv || name == OpenAIKeyEnv || isCompletionKeyEnv(name)
}

// LooksSecretEnv reports whether a variable's name says it holds a
// credential; the rule is internal/redact's, the one redactor's.
func LooksSecretEnv(name string) bool { return redact.LooksSecretName(name) }

// WithoutSecrets returns the "NAME=value" entries of environ whose names
// are not secrets, in their order.
func WithoutSecrets(environ []string) []string {
	return filterEnv(environ, func(name string) bool { return !IsSecretEnv(name) })
}

// CommandEnv is the environment for a command the model runs: environ
// without tandem's keys and without variables that are secret by name or
// hold a value shaped like a credential, unless allow names them. Provider
// keys stay out even when allowed.
func CommandEnv(environ, allow []string) []string {
	ok := make(map[string]bool, len(allow))
	for _, a := range allow {
		ok[a] = true
	}
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		secret := LooksSecretEnv(name) || redact.LooksSecretValue(value)
		if !IsSecretEnv(name) && (ok[name] || !secret) {
			out = append(out, kv)
		}
	}
	return out
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

// secretsOf is keys, the empty ones left out, and the credentials in the
// base URLs: a URL's password and the values of its query parameters whose
// names say they hold one (?key=, ?api_key=, ?token=), which a transport
// error quoting the URL would otherwise show.
func secretsOf(keys []string, baseURLs ...string) []string {
	var out []string
	for _, k := range keys {
		if k != "" {
			out = append(out, k)
		}
	}
	for _, raw := range baseURLs {
		u, err := url.Parse(raw)
		if err != nil || raw == "" {
			continue
		}
		if p, ok := u.User.Password(); ok && p != "" {
			out = append(out, p)
		}
		for name, vs := range u.Query() {
			// Named as a variable would be: key, api_key, token, password.
			if LooksSecretEnv("X_" + name) {
				out = append(out, vs...)
			}
		}
	}
	return out
}
