package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// Flags after the prompt are flags, not prompt words: `--mode ask` at the
// end runs in ask mode (no write tools offered). After `--` everything is
// prompt, dashes included.
func TestRunFlagsAnywhere(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	srv.Enqueue(llmtest.Reply{Text: []string{"ok"}}, llmtest.Reply{Text: []string{"ok"}})
	_, errOut, code := tandem(t, srv, home, "", "run", "fix", "the", "test", "--mode", "ask", "--cwd", work)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	r := srv.Requests()[0]
	if got := r.LastUserText(); got != "fix the test" {
		t.Errorf("prompt = %q, want the words without the flags", got)
	}
	if slices.Contains(r.Tools, "write_file") || !slices.Contains(r.Tools, "read_file") {
		t.Errorf("tools %v: --mode ask after the prompt was not applied", r.Tools)
	}

	_, errOut, code = tandem(t, srv, home, "", "run", "--cwd", work, "say", "--", "--mode", "ask", "-x")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	r = srv.Requests()[1]
	if got := r.LastUserText(); got != "say --mode ask -x" {
		t.Errorf("prompt after -- = %q", got)
	}
	if !slices.Contains(r.Tools, "write_file") {
		t.Errorf("a --mode after -- changed the mode: tools %v", r.Tools)
	}
}

// A piped stdin is the prompt, or is added after the prompt's words.
func TestRunPromptFromStdin(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	srv.Enqueue(llmtest.Reply{Text: []string{"a"}}, llmtest.Reply{Text: []string{"b"}})
	if _, errOut, code := tandem(t, srv, home, "-old\n+new\n", "run", "--cwd", work, "review", "this"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := srv.Requests()[0].LastUserText(); got != "review this\n\n-old\n+new" {
		t.Errorf("prompt = %q", got)
	}
	if _, errOut, code := tandem(t, srv, home, "only stdin\n", "run", "--cwd", work); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := srv.Requests()[1].LastUserText(); got != "only stdin" {
		t.Errorf("prompt = %q", got)
	}
	// An empty pipe and no words is a usage error, not a model request.
	_, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work)
	if code != exitUsage || !strings.Contains(errOut, "no prompt") {
		t.Errorf("no prompt: exit %d, %q", code, errOut)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

// --continue picks this directory's latest session, --resume a named one;
// both send the earlier turns again.
func TestRunResumeAndContinue(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work, other := t.TempDir(), t.TempDir(), t.TempDir()
	srv.Enqueue(llmtest.Reply{Text: []string{"first answer"}}, llmtest.Reply{Text: []string{"elsewhere"}},
		llmtest.Reply{Text: []string{"second"}}, llmtest.Reply{Text: []string{"third"}})
	out, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work, "--output-format", "json", "remember", "42")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var first struct{ SessionID string }
	if err := json.Unmarshal([]byte(out), &first); err != nil || first.SessionID == "" {
		t.Fatalf("json output %q: %v", out, err)
	}
	if _, errOut, code := tandem(t, srv, home, "", "run", "--cwd", other, "unrelated"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}

	out, errOut, code = tandem(t, srv, home, "", "run", "--cwd", work, "--continue", "--output-format", "json", "what", "was", "it")
	if code != 0 {
		t.Fatalf("--continue: exit %d: %s", code, errOut)
	}
	var second struct{ SessionID string }
	json.Unmarshal([]byte(out), &second)
	r := srv.Requests()[2]
	if second.SessionID != first.SessionID || len(r.Messages) != 3 || !strings.Contains(string(r.Body), "first answer") {
		t.Errorf("--continue: session %s (want %s), %d messages", second.SessionID, first.SessionID, len(r.Messages))
	}

	// --resume from anywhere: the session keeps its own directory.
	if _, errOut, code := tandem(t, srv, home, "", "run", "--resume", first.SessionID, "and", "now"); code != 0 {
		t.Fatalf("--resume: exit %d: %s", code, errOut)
	}
	if r := srv.Requests()[3]; len(r.Messages) != 5 || !strings.Contains(string(r.Body), "what was it") {
		t.Errorf("--resume: %d messages", len(r.Messages))
	}

	_, errOut, code = tandem(t, srv, home, "", "run", "--resume", "s_nope", "x")
	if code != exitError || !strings.Contains(errOut, "tandem sessions") {
		t.Errorf("unknown id: exit %d, %q", code, errOut)
	}
	_, errOut, code = tandem(t, srv, home, "", "run", "--cwd", t.TempDir(), "--continue", "x")
	if code != exitError || !strings.Contains(errOut, "no stored session") {
		t.Errorf("--continue in a fresh directory: exit %d, %q", code, errOut)
	}
	_, _, code = tandem(t, srv, home, "", "run", "--continue", "--resume", first.SessionID, "x")
	if code != exitUsage {
		t.Errorf("--continue with --resume: exit %d, want %d", code, exitUsage)
	}
}

// --allow approves what its rule covers and nothing else; --max-turns
// stops a turn that keeps calling tools.
func TestRunAllowAndMaxTurns(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "run_command", Args: `{"command":"mkdir made"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c2", Name: "run_command", Args: `{"command":"touch refused.txt"}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	_, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work, "--allow", "run_command(mkdir:*)", "go")
	if code != exitCannotAsk {
		t.Fatalf("exit %d, want %d (the touch could not be asked): %s", code, exitCannotAsk, errOut)
	}
	if _, err := os.Stat(filepath.Join(work, "made")); err != nil {
		t.Errorf("the allowed command did not run: %v\n%s", err, errOut)
	}
	if _, err := os.Stat(filepath.Join(work, "refused.txt")); err == nil {
		t.Error("a command no rule covers ran")
	}

	// A protected path asks whatever the rules say.
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "w", Name: "write_file", Args: `{"path":"AGENTS.md","content":"x"}`}}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	_, errOut, code = tandem(t, srv, home, "", "run", "--cwd", work, "--allow", "write_file", "go")
	if code != exitCannotAsk {
		t.Errorf("protected write under --allow write_file: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(work, "AGENTS.md")); err == nil {
		t.Error("--allow wrote a protected file")
	}

	_, errOut, code = tandem(t, srv, home, "", "run", "--allow", "run_command(go test", "x")
	if code != exitUsage || !strings.Contains(errOut, "Tool(specifier)") {
		t.Errorf("bad rule: exit %d, %q", code, errOut)
	}

	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "list_files", Args: `{}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "list_files", Args: `{}`}}},
		llmtest.Reply{Text: []string{"never reached"}},
	)
	_, errOut, code = tandem(t, srv, home, "", "run", "--cwd", work, "--max-turns", "2", "loop")
	if code != exitError || !strings.Contains(errOut, "--max-turns") {
		t.Errorf("--max-turns: exit %d, %q", code, errOut)
	}
}

// /dev/null is a character device but not a terminal: nobody can answer
// there, so a write is refused and the exit code says so.
func TestRunDevNullIsNotATerminal(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"x.txt","content":"x"}`}}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	cmd := exec.Command(testenv.Tandem(t), "run", "--cwd", work, "write", "x")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TANDEM_HOME=" + home,
		"ANTHROPIC_API_KEY=k", "ANTHROPIC_BASE_URL=" + srv.BaseURL(llmtest.Anthropic)}
	cmd.Stdin = devnull
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitCannotAsk {
		t.Errorf("exit %v, want %d:\n%s", err, exitCannotAsk, out)
	}
	if got := srv.Requests()[0].LastUserText(); got != "write x" {
		t.Errorf("prompt = %q", got)
	}
}
