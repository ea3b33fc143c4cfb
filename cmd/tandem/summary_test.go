package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/internal/testenv"
)

// The default Anthropic model has a price and a known window: the summary
// line has every figure.
func TestRunPrintsUsage(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	u := llm.Usage{InputTokens: 1200, OutputTokens: 340, CacheReadTokens: 2800}
	srv.Enqueue(llmtest.Reply{Text: []string{"hi"}, Usage: &u})
	_, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work, "hello")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	p, _ := models.PriceOf("claude-sonnet-4-5")
	want := fmt.Sprintf("tandem: 1 request · 4,000 input tokens (70%% cached) · 340 output · context 4,340/200,000 · $%.4f\n", p.Cost(u))
	if !strings.HasSuffix(errOut, want) {
		t.Errorf("stderr = %q\nwant it to end with %q", errOut, want)
	}
}

// A local OpenAI-compatible server: the window comes from what the server
// reports (vLLM's /v1/models), there is no price, and reasoning shows.
func TestRunUsageFromLocalServer(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ReportWindow(llmtest.VLLM, "qwen3:8b", 40_960)
	home, work := t.TempDir(), t.TempDir()
	u := llm.Usage{InputTokens: 900, OutputTokens: 120, ReasoningTokens: 80}
	srv.Enqueue(llmtest.Reply{Text: []string{"hi"}, Usage: &u})
	cmd := exec.Command(testenv.Tandem(t), "run", "--cwd", work, "hello")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TANDEM_HOME=" + home,
		"OPENAI_BASE_URL=" + srv.BaseURL(llmtest.OpenAI), "TANDEM_MODEL=qwen3:8b"}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	want := "tandem: 1 request · 900 input tokens (0% cached) · 120 output (80 reasoning) · context 1,020/40,960\n"
	if !strings.HasSuffix(errb.String(), want) {
		t.Errorf("stderr = %q\nwant it to end with %q", errb.String(), want)
	}

	// TANDEM_CONTEXT_WINDOW wins over what the server says.
	srv.Enqueue(llmtest.Reply{Text: []string{"hi"}, Usage: &u})
	cmd = exec.Command(testenv.Tandem(t), "run", "--cwd", work, "hello")
	cmd.Env = append(cmd.Env[:0:0], "PATH="+os.Getenv("PATH"), "HOME="+home, "TANDEM_HOME="+home,
		"OPENAI_BASE_URL="+srv.BaseURL(llmtest.OpenAI), "TANDEM_MODEL=qwen3:8b", "TANDEM_CONTEXT_WINDOW=16000")
	errb.Reset()
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	if !strings.Contains(errb.String(), "context 1,020/16,000\n") {
		t.Errorf("stderr = %q, want the window from TANDEM_CONTEXT_WINDOW", errb.String())
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
