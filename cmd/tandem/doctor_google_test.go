package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// tandem doctor --online checks a Gemini key and model with models.get,
// spending no tokens, and Vertex's credentials by getting a token; a
// profile is listed with the models it serves.
func TestDoctorGoogle(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ServeGeminiModels(llmtest.GeminiModel{ID: "gemini-2.5-pro", Input: 1_048_576, Output: 65_536}, llmtest.GeminiModel{ID: "gemini-2.5-flash", Input: 1_048_576, Output: 65_536})
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"profiles":{"flash":{"provider":"gemini","models":["gemini-2.5-flash"]}}}`), 0o600)
	env := []string{"HOME=" + home, "TANDEM_HOME=" + home, "GEMINI_API_KEY=AIzaSyDOCTOR-test-0123456789", "GOOGLE_GEMINI_BASE_URL=" + srv.URL}
	lines, code := doctorRun(t, work, env, "--online")
	expectLine(t, lines, "provider", "✓", "gemini (key from GEMINI_API_KEY")
	expectLine(t, lines, "online", "✓", "gemini-2.5-pro exists", "1,048,576", "no tokens spent")
	expectLine(t, lines, "profile flash", "·", "gemini for gemini-2.5-flash")
	if len(srv.Requests()) != 0 {
		t.Errorf("doctor spent tokens: %d model requests", len(srv.Requests()))
	}
	if code != 0 {
		t.Logf("exit %d: %v", code, lines)
	}
	lines, _ = doctorRun(t, work, append(env, "TANDEM_MODEL=gemini-9-ultra"), "--online")
	expectLine(t, lines, "online", "✗", "gemini-9-ultra not found", "offers: gemini-2.5-pro, gemini-2.5-flash")
	lines, _ = doctorRun(t, work, []string{"HOME=" + home, "TANDEM_HOME=" + home, "GEMINI_API_KEY=AIzaSyDOCTOR-wrong-0123456789", "GOOGLE_GEMINI_BASE_URL=" + srv.URL + "/nowhere"}, "--online")
	expectLine(t, lines, "online", "✗")

	sa, tokens := llmtest.ServiceAccount(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"OK"}})
	lines, _ = doctorRun(t, work, []string{"HOME=" + home, "TANDEM_HOME=" + home, "TANDEM_PROVIDER=vertex", "GOOGLE_APPLICATION_CREDENTIALS=" + sa,
		"GOOGLE_VERTEX_BASE_URL=" + srv.URL, "GOOGLE_CLOUD_LOCATION=us-east5"}, "--online")
	expectLine(t, lines, "provider", "✓", "vertex (the credentials' project", sa, "location us-east5")
	expectLine(t, lines, "credentials", "✓", "project sa-project")
	expectLine(t, lines, "online", "✓", "vertex answered with gemini-2.5-pro")
	if len(tokens.Issued()) != 1 {
		t.Errorf("tokens issued: %d", len(tokens.Issued()))
	}
	tokens.Refuse(400)
	lines, _ = doctorRun(t, work, []string{"HOME=" + home, "TANDEM_HOME=" + home, "TANDEM_PROVIDER=vertex", "GOOGLE_APPLICATION_CREDENTIALS=" + sa,
		"GOOGLE_VERTEX_BASE_URL=" + srv.URL}, "--online")
	expectLine(t, lines, "online", "✗", "access token", "GOOGLE_APPLICATION_CREDENTIALS")
}

// tandem login --provider gemini stores the key, which then picks the
// gemini provider; --provider vertex checks Google's credentials and
// stores nothing.
func TestLoginGoogle(t *testing.T) {
	home := t.TempDir()
	if _, stderr, code := tandem(t, nil, home, "AIzaSyLOGIN-gemini-0123456789\n", "login", "--provider", "gemini"); code != 0 {
		t.Fatalf("login: exit %d: %s", code, stderr)
	}
	cfg, err := config.Load(func(k string) string { return map[string]string{"TANDEM_HOME": home}[k] })
	if err != nil || cfg.Provider != "gemini" || cfg.Google.GeminiKey != "AIzaSyLOGIN-gemini-0123456789" {
		t.Errorf("after login: provider %q, %v", cfg.Provider, err)
	}
	sa, tokens := llmtest.ServiceAccount(t)
	cmd := exec.Command(testenv.Tandem(t), "login", "--provider", "vertex")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TANDEM_HOME=" + t.TempDir(), "GOOGLE_APPLICATION_CREDENTIALS=" + sa}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "credentials work (project sa-project)") || len(tokens.Issued()) != 1 {
		t.Errorf("vertex login: %v: %s", err, out)
	}
}
