package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func loadFile(t *testing.T, vars map[string]string, file string) (Config, error) {
	t.Helper()
	home := t.TempDir()
	vars["TANDEM_HOME"] = home
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	return Load(env(vars))
}

// Several providers at once: the top level is the default, each profile
// serves the models it lists or whose prefix it names, and a session's
// model picks the provider.
func TestProfilesRouteByModel(t *testing.T) {
	c, err := loadFile(t, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-env", "GOOGLE_CLOUD_LOCATION": "us-central1", "TANDEM_PROVIDER": "anthropic", "GEMINI_API_KEY": "AIza-env"}, `{
		"model": "claude-sonnet-4-5",
		"googleCloudProject": "proj-top",
		"profiles": {
			"gemini": {"provider": "gemini", "models": ["gemini-2.5-pro", "gemini-2.5-flash"], "modelPrefixes": ["gemini-"]},
			"claude-vertex": {"provider": "vertex", "googleCloudLocation": "us-east5", "model": "claude-opus-4-1@20250805"},
			"local": {"provider": "openai-chat", "openaiBaseUrl": "http://127.0.0.1:11434/v1", "models": ["qwen3:8b"], "modelPrefixes": ["gemini-local-"]}
		}}`)
	if err != nil {
		t.Fatal(err)
	}
	if c.Provider != "anthropic" || c.Model != "claude-sonnet-4-5" {
		t.Fatalf("default = %s %s", c.Provider, c.Model)
	}
	want := []string{"claude-sonnet-4-5", "claude-opus-4-1@20250805", "gemini-2.5-pro", "gemini-2.5-flash", "qwen3:8b", "gemini-2.5-pro"}
	if !slices.Equal(c.Models, dedupe(want)) {
		t.Errorf("models = %q", c.Models)
	}
	cases := []struct{ model, profile, provider string }{
		{"claude-sonnet-4-5", "", "anthropic"},
		{"gemini-2.5-flash", "gemini", "gemini"},
		{"gemini-3-pro-preview", "gemini", "gemini"}, // by prefix
		{"gemini-local-7b", "local", "openai"},       // the longer prefix wins
		{"claude-opus-4-1@20250805", "claude-vertex", "vertex"},
		{"qwen3:8b", "local", "openai"},
		{"something-else", "", "anthropic"},
		{"", "", "anthropic"},
	}
	for _, tc := range cases {
		pc, name := c.Route(tc.model)
		if name != tc.profile || pc.Provider != tc.provider {
			t.Errorf("Route(%q) = %q (%s), want %q (%s)", tc.model, name, pc.Provider, tc.profile, tc.provider)
		}
	}
	vx, _ := c.Route("claude-opus-4-1@20250805")
	// The profile's own location wins over the environment's; what it
	// leaves out (the project) comes from the top level.
	if vx.Google.Location != "us-east5" || vx.Google.Project != "proj-top" || vx.Model != "claude-opus-4-1@20250805" {
		t.Errorf("vertex profile = %+v", vx.Google)
	}
	gm, _ := c.Route("gemini-2.5-pro")
	if gm.Google.GeminiKey != "AIza-env" || gm.Model != "gemini-2.5-pro" {
		t.Errorf("gemini profile: key %q model %q", gm.Google.GeminiKey, gm.Model)
	}
	lc, _ := c.Route("qwen3:8b")
	if lc.OpenAIAPI != OpenAIChat || lc.OpenAIBaseURL != "http://127.0.0.1:11434/v1" {
		t.Errorf("local profile = %+v", lc)
	}
	if !slices.Contains(c.Secrets, "AIza-env") || !slices.Contains(c.Secrets, "sk-ant-env") {
		t.Errorf("secrets miss a profile's key")
	}
}

func TestProfileErrors(t *testing.T) {
	cases := []struct{ file, want string }{
		{`{"profiles": {"x": {"models": ["m"]}}}`, `profile "x" names no provider`},
		{`{"profiles": {"x": {"provider": "gemini", "sandbox": {}}}}`, `"sandbox" is not a profile key`},
		{`{"profiles": {"x": {"provider": "palm"}}}`, `(in profile "x")`},
		{`{"profiles": {"x": []}}`, `profile "x" is not an object`},
		{`{"profiles": {"x": {"provider": "gemini", "models": "one"}}}`, `profile "x"`},
	}
	for _, tc := range cases {
		_, err := loadFile(t, map[string]string{}, tc.file)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.file, err, tc.want)
		}
	}
}

// TANDEM_PROVIDER and TANDEM_MODEL choose the default; a profile keeps
// its own.
func TestProfileIgnoresSelectionEnv(t *testing.T) {
	c, err := loadFile(t, map[string]string{"TANDEM_PROVIDER": "openai", "TANDEM_MODEL": "gpt-5", "OPENAI_API_KEY": "k"},
		`{"profiles": {"g": {"provider": "gemini", "geminiApiKey": "AIza-file"}}}`)
	if err != nil {
		t.Fatal(err)
	}
	g, name := c.Route(DefaultGeminiModel)
	if name != "g" || g.Provider != Gemini || g.Google.GeminiKey != "AIza-file" {
		t.Errorf("Route = %q %+v", name, g)
	}
	if d, _ := c.Route("gpt-5"); d.Provider != "openai" {
		t.Errorf("default = %s", d.Provider)
	}
}

// With profiles only, a session starts on the first profile's model,
// which routes to it.
func TestOnlyProfiles(t *testing.T) {
	c, err := loadFile(t, map[string]string{}, `{"profiles": {"b": {"provider": "gemini", "geminiApiKey": "AIza-b"}, "a": {"provider": "openai-chat", "openaiBaseUrl": "http://127.0.0.1:1/v1", "models": ["qwen3:8b"]}}}`)
	if err != nil {
		t.Fatal(err)
	}
	if c.Provider != "" || c.Model != "qwen3:8b" || !slices.Equal(c.Models, []string{"qwen3:8b", DefaultGeminiModel}) {
		t.Fatalf("provider %q model %q models %q", c.Provider, c.Model, c.Models)
	}
	if _, name := c.Route(c.Model); name != "a" {
		t.Errorf("the first model routes to %q", name)
	}
}
