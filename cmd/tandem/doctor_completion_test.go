package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

func TestDoctorCompletion(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	lines, _ := doctorRun(t, work, []string{"HOME=" + home, "TANDEM_HOME=" + home})
	expectLine(t, lines, "completion", "·", "off")

	srv := llmtest.NewFIMServer(t)
	srv.Handle(func(*llmtest.FIMRequest) llmtest.FIMReply { return llmtest.FIMReply{Chunks: []string{"a + b"}} })
	os.MkdirAll(filepath.Join(work, ".tandem"), 0o755)
	os.WriteFile(filepath.Join(work, ".tandem", "settings.json"), []byte(`{"completion": {"enabled": false}}`), 0o644)
	env := []string{"HOME=" + home, "TANDEM_HOME=" + home, "TANDEM_COMPLETION_PROVIDER=ollama",
		"TANDEM_COMPLETION_MODEL=qwen2.5-coder:1.5b", "TANDEM_COMPLETION_BASE_URL=" + srv.URL}
	lines, _ = doctorRun(t, work, env, "--online")
	expectLine(t, lines, "completion", "✓", "ollama: qwen2.5-coder:1.5b at "+srv.URL+"/api/generate, qwen FIM tokens")
	expectLine(t, lines, "completion here", "·", "turned off")
	expectLine(t, lines, "completion test", "✓", "answered")
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("--online sent %d completion requests, want 1", n)
	}

	env[2] = "TANDEM_COMPLETION_PROVIDER=ollama"
	env[3] = "TANDEM_COMPLETION_MODEL="
	lines, code := doctorRun(t, work, env)
	expectLine(t, lines, "completion", "✗", "needs a model")
	if code != 1 {
		t.Errorf("exit %d with a broken completion configuration, want 1", code)
	}
}
