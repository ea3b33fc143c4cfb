package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSaveKeyAndLoad(t *testing.T) {
	home := t.TempDir()
	if err := SaveKey(home, "anthropic", "sk-ant-stored"); err != nil {
		t.Fatal(err)
	}
	if err := SaveKey(home, "openai", "sk-oai-stored"); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(home, CredentialsFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v, %v (want mode 0600)", st.Mode(), err)
	}
	c, err := Load(env(map[string]string{"TANDEM_HOME": home}))
	if err != nil {
		t.Fatal(err)
	}
	if c.AnthropicKey != "sk-ant-stored" || c.OpenAIKey != "sk-oai-stored" || c.Provider != "anthropic" {
		t.Errorf("stored keys not used: provider %q", c.Provider)
	}
	// The environment and config.json come first.
	c, err = Load(env(map[string]string{"TANDEM_HOME": home, "ANTHROPIC_API_KEY": "sk-env"}))
	if err != nil || c.AnthropicKey != "sk-env" {
		t.Errorf("the environment's key did not win: %v", err)
	}
	if err := SaveKey(home, "palm", "x"); err == nil {
		t.Error("an unknown provider was accepted")
	}
}

func TestCredentialsReadableByOthersRefused(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, CredentialsFile)
	if err := os.WriteFile(path, []byte(`{"anthropicApiKey":"sk-leaky"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(env(map[string]string{"TANDEM_HOME": home}))
	if err == nil || !strings.Contains(err.Error(), "chmod 600") || strings.Contains(err.Error(), "sk-leaky") {
		t.Fatalf("a world-readable credentials file: %v", err)
	}
	// Logging in again replaces it with a private file.
	if err := SaveKey(home, "openai", "sk-new"); err != nil {
		t.Fatal(err)
	}
	c, err := Load(env(map[string]string{"TANDEM_HOME": home}))
	if err != nil || c.OpenAIKey != "sk-new" || c.AnthropicKey != "" {
		t.Errorf("after login again: %v", err)
	}
}
