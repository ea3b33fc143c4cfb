package config

import (
	"fmt"
	"strings"
)

// The inline-completion providers (config.json completion.provider,
// TANDEM_COMPLETION_PROVIDER). Each names the wire the completion package
// speaks to it; see completion/doc.go.
const (
	CompletionOllama    = "ollama"    // Ollama's /api/generate with suffix
	CompletionLlamaCpp  = "llamacpp"  // llama.cpp server's /infill
	CompletionOpenAI    = "openai"    // any OpenAI-compatible /v1/completions
	CompletionCodestral = "codestral" // Mistral's /v1/fim/completions
	CompletionDeepSeek  = "deepseek"  // DeepSeek's FIM beta, /beta/completions
	CompletionChat      = "chat"      // the chat provider, asked for the middle only
)

// CompletionProviders lists the providers in the order they are documented.
func CompletionProviders() []string {
	return []string{CompletionOllama, CompletionLlamaCpp, CompletionOpenAI, CompletionCodestral, CompletionDeepSeek, CompletionChat}
}

// The environment variables of inline completions. The key variables are
// secrets (IsSecretEnv): a completion key is a provider key.
const (
	CompletionKeyEnv      = "TANDEM_COMPLETION_API_KEY"
	MistralKeyEnv         = "MISTRAL_API_KEY"
	DeepSeekKeyEnv        = "DEEPSEEK_API_KEY"
	completionProviderEnv = "TANDEM_COMPLETION_PROVIDER"
	completionModelEnv    = "TANDEM_COMPLETION_MODEL"
	completionBaseURLEnv  = "TANDEM_COMPLETION_BASE_URL"
)

// isCompletionKeyEnv reports the completion key variables, for IsSecretEnv.
func isCompletionKeyEnv(name string) bool {
	return name == CompletionKeyEnv || name == MistralKeyEnv || name == DeepSeekKeyEnv
}

// CompletionFile is config.json's "completion" object. Completions are
// off until Provider is set here or in TANDEM_COMPLETION_PROVIDER.
type CompletionFile struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	BaseURL  string `json:"baseURL"`
	APIKey   string `json:"apiKey"`
	// DebounceMs is how long an automatic request waits for the next
	// keystroke before it asks the model (0: the default; negative: none).
	DebounceMs int `json:"debounceMs"`
	// MaxLines caps a multi-line suggestion (0: the default).
	MaxLines int `json:"maxLines"`
	// Instructions adds the workspace's instruction file to the context.
	Instructions bool `json:"instructions"`
	// Template names the FIM token family when the model's name does not
	// say it ("qwen", "deepseek", "starcoder", "codestral", "codellama",
	// "codegemma"; "none": send prefix and suffix, the server formats).
	Template string `json:"template"`
}

// Completion is the resolved inline-completion configuration.
type Completion struct {
	CompletionFile
	// Key is the credential for a hosted provider: TANDEM_COMPLETION_API_KEY
	// or completion.apiKey, else the provider's own variable (MISTRAL_API_KEY,
	// DEEPSEEK_API_KEY, or the chat configuration's OpenAI key for openai).
	Key string
	// KeyEnv names where Key came from, for 401/403 errors.
	KeyEnv string
}

// Enabled reports whether completions are configured at all.
func (c Completion) Enabled() bool { return c.Provider != "" }

// completionSecrets are the completion keys from every source, for
// Config.Secrets; Load collects them before anything can fail.
func completionSecrets(getenv func(string) string, f File) []string {
	return secretsOf([]string{getenv(CompletionKeyEnv), f.Completion.APIKey, getenv(MistralKeyEnv), getenv(DeepSeekKeyEnv)},
		getenv(completionBaseURLEnv), f.Completion.BaseURL)
}

// loadCompletion resolves the "completion" object and its environment
// variables. An unknown provider is an error naming the known ones.
func (c *Config) loadCompletion(getenv func(string) string, f File) error {
	cf := f.Completion
	pick := func(env, file string) string {
		if v := getenv(env); v != "" {
			return v
		}
		return file
	}
	cf.Provider = strings.ToLower(pick(completionProviderEnv, cf.Provider))
	cf.Model = pick(completionModelEnv, cf.Model)
	cf.BaseURL = pick(completionBaseURLEnv, cf.BaseURL)
	cc := Completion{CompletionFile: cf}
	switch {
	case getenv(CompletionKeyEnv) != "":
		cc.Key, cc.KeyEnv = getenv(CompletionKeyEnv), CompletionKeyEnv
	case cf.APIKey != "":
		cc.Key, cc.KeyEnv = cf.APIKey, "completion.apiKey in config.json"
	case cf.Provider == CompletionCodestral:
		cc.Key, cc.KeyEnv = getenv(MistralKeyEnv), MistralKeyEnv
	case cf.Provider == CompletionDeepSeek:
		cc.Key, cc.KeyEnv = getenv(DeepSeekKeyEnv), DeepSeekKeyEnv
	case cf.Provider == CompletionOpenAI && cf.BaseURL == "":
		cc.Key, cc.KeyEnv = c.OpenAIKey, OpenAIKeyEnv
	}
	known := false
	for _, p := range CompletionProviders() {
		known = known || cf.Provider == p
	}
	if cf.Provider != "" && !known {
		return fmt.Errorf("config: completion provider %q: use one of %s", cf.Provider, strings.Join(CompletionProviders(), ", "))
	}
	if cf.MaxLines < 0 {
		return fmt.Errorf("config: completion.maxLines is %d; use a positive number, or 0 for the default", cf.MaxLines)
	}
	c.Completion = cc
	return nil
}
