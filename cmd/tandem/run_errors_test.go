package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// A 404 from the provider names the models it offers; retries are shown
// with their reason and count.
func TestRunProviderErrorsExplained(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.ReportWindow(llmtest.VLLM, "qwen3:8b", 40_960)
	home, work := t.TempDir(), t.TempDir()
	srv.Enqueue(llmtest.Reply{Status: 404, Message: "model not found"})
	run := func(args ...string) (string, int) {
		cmd := exec.Command(testenv.Tandem(t), args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TANDEM_HOME=" + home, "OPENAI_BASE_URL=" + srv.BaseURL(llmtest.OpenAI), "TANDEM_LOG=debug", "OPENAI_API_KEY=secret-openai-key"}
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return errb.String(), ee.ExitCode()
		}
		return errb.String(), 0
	}
	errOut, code := run("run", "--cwd", work, "--model", "qwen3:8x", "hi")
	if code != exitError || !strings.Contains(errOut, "HTTP 404") || !strings.Contains(errOut, "offers: qwen3:8b, qwen3:8b-other") {
		t.Errorf("404: exit %d\n%s", code, errOut)
	}

	srv.Enqueue(llmtest.Reply{Status: 401, Message: "invalid key"})
	errOut, code = run("run", "--cwd", work, "--model", "qwen3:8b", "hi")
	if code != exitError || !strings.Contains(errOut, "HTTP 401") || !strings.Contains(errOut, "OPENAI_API_KEY") {
		t.Errorf("401: exit %d\n%s", code, errOut)
	}

	srv.Enqueue(llmtest.Reply{Status: 503, Times: 2, Message: "busy"},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"a.txt","content":"x"}`}}},
		llmtest.Reply{Text: []string{"fine"}})
	errOut, code = run("run", "--cwd", work, "--model", "qwen3:8b", "--yes", "hi")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for _, want := range []string{
		"model request failed (HTTP 503 Service Unavailable); retry 1 in",
		"model request failed (HTTP 503 Service Unavailable); retry 2 in",
		// TANDEM_LOG=debug: sizes and timing, tool calls, permission decisions.
		"msg=\"model http\" path=/v1/chat/completions request_bytes=",
		"msg=\"model http done\"",
		"msg=\"tool call\"", "tool=write_file",
		"msg=permission", "decision=allowed",
		"msg=\"model request\"", "estimated_tokens=",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "secret-openai-key") {
		t.Error("the key reached the log")
	}
	if strings.Count(errOut, "retry 1 in") != 1 {
		t.Errorf("a retry notice was repeated:\n%s", errOut)
	}
}
