package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name      string
		env       map[string]string
		file      string
		provider  string
		model     string
		baseURL   string
		wantError string
	}{
		{name: "nothing configured", env: map[string]string{}, provider: "", model: ""},
		{name: "anthropic key picks anthropic", env: map[string]string{"ANTHROPIC_API_KEY": "k"}, provider: "anthropic", model: DefaultAnthropicModel},
		{name: "openai key picks openai", env: map[string]string{"OPENAI_API_KEY": "k"}, provider: "openai", model: DefaultOpenAIModel},
		{name: "base url alone picks openai (ollama)", env: map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"}, provider: "openai", baseURL: "http://127.0.0.1:11434/v1", model: DefaultOpenAIModel},
		{name: "explicit provider wins over keys", env: map[string]string{"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k", "TANDEM_PROVIDER": "OpenAI"}, provider: "openai", model: DefaultOpenAIModel},
		{name: "env wins over file", env: map[string]string{"TANDEM_MODEL": "m-env"}, file: `{"provider":"anthropic","model":"m-file","anthropicApiKey":"k"}`, provider: "anthropic", model: "m-env"},
		{name: "file used when env is empty", env: map[string]string{}, file: `{"provider":"openai","model":"llama3","openaiBaseUrl":"http://x/v1"}`, provider: "openai", model: "llama3", baseURL: "http://x/v1"},
		{name: "unknown provider", env: map[string]string{"TANDEM_PROVIDER": "palm"}, wantError: "use anthropic, openai, openai-chat, gemini, vertex, bedrock or azure"},
		{name: "gemini key picks gemini", env: map[string]string{"GEMINI_API_KEY": "k"}, provider: "gemini", model: DefaultGeminiModel},
		{name: "google api key alone picks nothing", env: map[string]string{"GOOGLE_API_KEY": "k"}, provider: "", model: ""},
		{name: "vertex on request", env: map[string]string{"TANDEM_PROVIDER": "vertex", "GOOGLE_CLOUD_PROJECT": "p"}, provider: "vertex", model: DefaultGeminiModel},
		{name: "bad json", env: map[string]string{}, file: `{`, wantError: "not valid JSON"},
		{name: "bad turn limit", env: map[string]string{"TANDEM_MAX_TURN_REQUESTS": "-1"}, wantError: "TANDEM_MAX_TURN_REQUESTS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			tt.env["TANDEM_HOME"] = home
			if tt.file != "" {
				os.WriteFile(filepath.Join(home, "config.json"), []byte(tt.file), 0o600)
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
			if c.Provider != tt.provider || c.Model != tt.model || c.OpenAIBaseURL != tt.baseURL {
				t.Errorf("got provider=%q model=%q base=%q", c.Provider, c.Model, c.OpenAIBaseURL)
			}
		})
	}
}

func TestStringRedactsKeys(t *testing.T) {
	c, err := Load(env(map[string]string{"TANDEM_HOME": t.TempDir(), "ANTHROPIC_API_KEY": "sk-secret-123"}))
	if err != nil {
		t.Fatal(err)
	}
	if s := c.String(); strings.Contains(s, "sk-secret") || !strings.Contains(s, "anthropic_key=set") {
		t.Errorf("String() = %q", s)
	}
}

// Editors hand env values over without a shell: a TANDEM_HOME of "~/x"
// must mean the user's ~/x for every part of tandem, not a directory
// named "~" under the working directory.
func TestHome(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HOME": "/u", "TANDEM_HOME": "~/th"}, "/u/th"},
		{map[string]string{"HOME": "/u", "TANDEM_HOME": "~"}, "/u"},
		{map[string]string{"HOME": "/u", "TANDEM_HOME": "/abs/th/"}, "/abs/th"},
		{map[string]string{"HOME": "/u"}, "/u/.tandem"},
	}
	for _, tt := range tests {
		got, err := Home(env(tt.env))
		if err != nil || got != tt.want {
			t.Errorf("Home(%v) = %q, %v; want %q", tt.env, got, err, tt.want)
		}
	}
	// On Windows the profile directory comes first: HOME is set only by
	// some shells. The rule is passed in, so this runs on every OS.
	for _, tt := range []struct {
		env     map[string]string
		windows bool
		want    string
	}{
		{map[string]string{"USERPROFILE": "/profile", "HOME": "/u"}, true, filepath.Join("/profile", ".tandem")},
		{map[string]string{"HOME": "/u"}, true, filepath.Join("/u", ".tandem")},
		{map[string]string{"USERPROFILE": "/profile", "HOME": "/u"}, false, filepath.Join("/u", ".tandem")},
		{map[string]string{"USERPROFILE": "/profile", "TANDEM_HOME": `~\th`}, true, filepath.Join("/profile", `\th`)},
		{map[string]string{"USERPROFILE": "/profile", "TANDEM_HOME": "~/th"}, true, filepath.Join("/profile", "th")},
	} {
		got, err := home(env(tt.env), tt.windows)
		if err != nil || got != tt.want {
			t.Errorf("home(%v, windows=%v) = %q, %v; want %q", tt.env, tt.windows, got, err, tt.want)
		}
	}
	home := t.TempDir()
	c, err := Load(env(map[string]string{"HOME": home, "TANDEM_HOME": "~/th"}))
	if err != nil || c.Home != filepath.Join(home, "th") {
		t.Errorf("Load: home %q, %v", c.Home, err)
	}
}
