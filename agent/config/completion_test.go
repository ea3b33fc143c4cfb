package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCompletionConfig(t *testing.T) {
	load := func(file string, e map[string]string) (Config, error) {
		home := t.TempDir()
		if file != "" {
			os.WriteFile(filepath.Join(home, "config.json"), []byte(file), 0o600)
		}
		m := map[string]string{"TANDEM_HOME": home}
		for k, v := range e {
			m[k] = v
		}
		return Load(env(m))
	}
	c, err := load("", nil)
	if err != nil || c.Completion.Enabled() {
		t.Fatalf("unconfigured: %+v, %v; want off", c.Completion, err)
	}
	c, err = load(`{"completion": {"provider": "Ollama", "model": "qwen2.5-coder:1.5b", "baseURL": "http://h:1"}}`, nil)
	if err != nil || c.Completion.Provider != "ollama" || c.Completion.Model != "qwen2.5-coder:1.5b" || c.Completion.BaseURL != "http://h:1" {
		t.Fatalf("from config.json: %+v, %v", c.Completion, err)
	}
	c, err = load(`{"completion": {"provider": "ollama", "model": "a"}}`, map[string]string{
		"TANDEM_COMPLETION_PROVIDER": "llamacpp", "TANDEM_COMPLETION_MODEL": "b", "TANDEM_COMPLETION_BASE_URL": "http://x"})
	if err != nil || c.Completion.Provider != "llamacpp" || c.Completion.Model != "b" || c.Completion.BaseURL != "http://x" {
		t.Fatalf("the environment does not win: %+v, %v", c.Completion, err)
	}
	c, err = load(`{"completion": {"provider": "codestral"}}`, map[string]string{"MISTRAL_API_KEY": "mk-1"})
	if err != nil || c.Completion.Key != "mk-1" || c.Completion.KeyEnv != MistralKeyEnv || !slices.Contains(c.Secrets, "mk-1") {
		t.Fatalf("codestral key: %+v, %v", c.Completion, err)
	}
	c, err = load(`{"completion": {"provider": "deepseek", "apiKey": "dk-file"}}`, map[string]string{"TANDEM_COMPLETION_API_KEY": "dk-env"})
	if err != nil || c.Completion.Key != "dk-env" || !slices.Contains(c.Secrets, "dk-file") {
		t.Fatalf("completion key: %+v, %v", c.Completion, err)
	}
	if _, err = load(`{"completion": {"provider": "copilot"}}`, nil); err == nil || !strings.Contains(err.Error(), "ollama, llamacpp") {
		t.Fatalf("unknown provider: %v", err)
	}
	// A configuration that fails later still hands over the keys.
	c, err = load(`{"thoughtLevel": "extreme", "completion": {"provider": "openai", "apiKey": "ck-early"}}`, nil)
	if err == nil || !slices.Contains(c.Secrets, "ck-early") {
		t.Fatalf("failing config: %v, secrets lack the completion key", err)
	}
	for _, name := range []string{CompletionKeyEnv, MistralKeyEnv, DeepSeekKeyEnv} {
		if !IsSecretEnv(name) {
			t.Errorf("%s is not a secret variable", name)
		}
	}
}
