package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestAzureDeploymentsListedWithTheirModelsWindows: an Azure deployment's
// name says nothing of its model; the listing names the model, whose
// window the built-in table knows, and a deployment of a model it does
// not know keeps the default.
func TestAzureDeploymentsListedWithTheirModelsWindows(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ServeAzureDeployments(llmtest.AzureDeployment{ID: "gpt5-prod", Model: "gpt-5"},
		llmtest.AzureDeployment{ID: "house-model", Model: "phi-unknown"})
	cfg := loadConfig(t, map[string]string{"TANDEM_PROVIDER": "azure", "TANDEM_MODEL": "gpt5-prod",
		"AZURE_OPENAI_ENDPOINT": srv.URL, "AZURE_OPENAI_API_KEY": "azure-KEY-0123456789"})
	w := &models.Windows{}
	ids, err := modelLister(cfg, w)(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids, []string{"gpt5-prod", "house-model"}) {
		t.Errorf("ids = %q", ids)
	}
	if l, src := w.Lookup("gpt5-prod"); l.Context != 400_000 || src != models.FromServer {
		t.Errorf("gpt5-prod: %+v from %s", l, src)
	}
	if l, src := w.Lookup("house-model"); l.Context != models.DefaultContext || src != models.FromFallback {
		t.Errorf("house-model: %+v from %s", l, src)
	}
}

// TestRunKeepsToTheListedOutputLimit: `tandem run` against an
// OpenRouter-style server that lists the model's output limit
// (top_provider.max_completion_tokens, 16384) sends no more than that,
// though config.json's maxTokens asks for 50000.
func TestRunKeepsToTheListedOutputLimit(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ReportWindow(llmtest.OpenRouter, "vendor/coder-x", 40_960)
	srv.Enqueue(llmtest.Reply{Text: []string{"short answer"}})
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"model":"vendor/coder-x","maxTokens":50000}`), 0o644)
	cmd := exec.Command(testenv.Tandem(t), "run", "--cwd", work, "say something")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TANDEM_HOME=" + home,
		"OPENAI_API_KEY=sk-router-0123456789", "OPENAI_BASE_URL=" + srv.BaseURL(llmtest.OpenAI)}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "short answer") {
		t.Fatalf("%v: %s", err, out)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].MaxTokens != 16_384 {
		t.Fatalf("%d requests; want one asking for 16384 tokens (%+v)", len(reqs), reqs)
	}
}
