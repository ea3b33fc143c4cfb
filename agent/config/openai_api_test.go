package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The OpenAI wire follows the contract of issue 32: Responses on OpenAI's
// own endpoint, Chat Completions on any other server, either on request.
func TestOpenAIAPI(t *testing.T) {
	tests := []struct {
		name      string
		env       map[string]string
		file      string
		api       string
		wantError string
	}{
		{name: "openai key alone: responses", env: map[string]string{"OPENAI_API_KEY": "k"}, api: OpenAIResponses},
		{name: "openai's own base url: responses", env: map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "https://API.openai.com/v1/"}, api: OpenAIResponses},
		{name: "another server: chat", env: map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"}, api: OpenAIChat},
		{name: "openai-chat provider", env: map[string]string{"OPENAI_API_KEY": "k", "TANDEM_PROVIDER": "openai-chat"}, api: OpenAIChat},
		{name: "explicit responses on another server", env: map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "TANDEM_OPENAI_API": "Responses"}, api: OpenAIResponses},
		{name: "explicit chat on openai", env: map[string]string{"OPENAI_API_KEY": "k", "TANDEM_OPENAI_API": "chat"}, api: OpenAIChat},
		{name: "from config.json", env: map[string]string{}, file: `{"provider":"openai","openaiBaseUrl":"http://x/v1","openaiApi":"responses"}`, api: OpenAIResponses},
		{name: "anthropic: none", env: map[string]string{"ANTHROPIC_API_KEY": "k"}, api: ""},
		{name: "unknown api", env: map[string]string{"OPENAI_API_KEY": "k", "TANDEM_OPENAI_API": "assistants"}, wantError: "use responses or chat"},
		{name: "contradiction", env: map[string]string{"TANDEM_PROVIDER": "openai-chat", "TANDEM_OPENAI_API": "responses"}, wantError: "openai-chat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			tt.env["TANDEM_HOME"] = home
			if tt.file != "" {
				if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			c, err := Load(env(tt.env))
			if tt.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantError) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.OpenAIAPI != tt.api {
				t.Errorf("OpenAIAPI = %q, want %q (provider %q)", c.OpenAIAPI, tt.api, c.Provider)
			}
			if tt.api != "" && c.Provider != "openai" {
				t.Errorf("provider = %q, want openai", c.Provider)
			}
		})
	}
}
