package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// Secrets holds every key from every source, the overridden ones too, and
// the credentials in base URLs; a later error in the file leaves them set.
func TestSecretsFromEverySource(t *testing.T) {
	home := t.TempDir()
	if err := SaveKey(home, "openai", "sk-stored-openai"); err != nil {
		t.Fatal(err)
	}
	file := `{"anthropicApiKey":"sk-file-anthropic","openaiApiKey":"sk-file-openai",` +
		`"openaiBaseUrl":"https://bob:url-password@proxy.example/v1?api_key=url-query-key&model=x","thoughtLevel":"bogus"}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(env(map[string]string{"TANDEM_HOME": home, "ANTHROPIC_API_KEY": "sk-env-anthropic"}))
	if err == nil {
		t.Fatal("the bad thoughtLevel was accepted")
	}
	got := strings.Join(c.Secrets, " ")
	for _, want := range []string{"sk-env-anthropic", "sk-file-anthropic", "sk-file-openai", "sk-stored-openai", "url-password", "url-query-key"} {
		if !strings.Contains(got, want) {
			t.Errorf("Secrets = %q, missing %q", got, want)
		}
	}
	if strings.Contains(got, "bob") || strings.Contains(got, " x") {
		t.Errorf("Secrets = %q: holds what is no secret", got)
	}
}
