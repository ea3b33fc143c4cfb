package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// tandem runs the real binary with a clean environment pointing at srv.
func tandem(t *testing.T, srv *llmtest.Server, home string, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(testenv.Tandem(t), args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TANDEM_HOME=" + home}
	if srv != nil {
		cmd.Env = append(cmd.Env, "ANTHROPIC_API_KEY=secret-test-key", "ANTHROPIC_BASE_URL="+srv.BaseURL(llmtest.Anthropic))
	}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestRunEditsWithYes(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(work, "notes.txt"), []byte("draft\n"), 0o644)
	srv.Enqueue(
		llmtest.Reply{Text: []string{"Editing the notes.\n"}, ToolCalls: []llmtest.ToolCall{{ID: "e", Name: "edit_file", Args: `{"path":"notes.txt","old_string":"draft","new_string":"final"}`}}},
		llmtest.Reply{Text: []string{"Done."}},
	)
	out, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work, "--yes", "finish", "the", "notes")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if out != "Editing the notes.\nDone.\n" {
		t.Errorf("stdout = %q (only model text belongs there)", out)
	}
	if !strings.Contains(errOut, "Edit notes.txt") {
		t.Errorf("stderr lacks the tool activity: %q", errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "notes.txt")); string(b) != "final\n" {
		t.Errorf("file = %q", b)
	}
	if got := srv.Requests()[0].LastUserText(); got != "finish the notes" {
		t.Errorf("prompt = %q", got)
	}
	if strings.Contains(out+errOut, "secret-test-key") {
		t.Error("the API key was printed")
	}

	// The session was stored and lists.
	out, _, code = tandem(t, nil, home, "", "sessions", "--json")
	var metas []struct{ Cwd, Title string }
	if err := json.Unmarshal([]byte(out), &metas); err != nil || code != 0 {
		t.Fatalf("sessions --json: %v %q", err, out)
	}
	if len(metas) != 1 || metas[0].Title != "finish the notes" {
		t.Errorf("sessions = %+v", metas)
	}
}

// Without a terminal and without --yes, the host cannot ask: the policy
// refuses the write, the model is told why, and the exit code says a
// permission went unanswered.
func TestRunDeniesWithoutTerminal(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "w", Name: "write_file", Args: `{"path":"x.txt","content":"x"}`}}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	_, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work, "write x")
	if code != exitCannotAsk {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Count(errOut, "cannot show permission prompts") != 1 {
		t.Errorf("the refusal is not said exactly once: %q", errOut)
	}
	if !strings.Contains(errOut, "--yes") || !strings.Contains(errOut, "cannot show permission prompts") {
		t.Errorf("stderr does not say why or how to approve: %q", errOut)
	}
	if _, err := os.Stat(filepath.Join(work, "x.txt")); err == nil {
		t.Error("file written without approval")
	}
	if r := srv.Requests(); len(r) != 2 || !strings.Contains(string(r[1].Body), "in code mode edits need the user's approval") {
		t.Errorf("the model was not told why the write was refused")
	}
}

func TestRunFailures(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	_, errOut, code := tandem(t, nil, home, "", "run", "--cwd", work, "hello")
	if code == 0 || !strings.Contains(errOut, "ANTHROPIC_API_KEY") || !strings.Contains(errOut, "OPENAI_API_KEY") {
		t.Errorf("no provider: exit %d, %q", code, errOut)
	}
	_, errOut, code = tandem(t, nil, home, "", "run")
	if code != 2 || !strings.Contains(errOut, "usage: tandem run") {
		t.Errorf("no prompt: exit %d, %q", code, errOut)
	}
	_, errOut, code = tandem(t, nil, home, "", "run", "--mode", "yolo", "x")
	if code == 0 || !strings.Contains(errOut, "unknown mode") {
		t.Errorf("bad mode: exit %d, %q", code, errOut)
	}
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"cut"}, Stop: "max_tokens"})
	_, errOut, code = tandem(t, srv, home, "", "run", "--cwd", work, "x")
	if code == 0 || !strings.Contains(errOut, "max_tokens") {
		t.Errorf("max_tokens: exit %d, %q", code, errOut)
	}
}

func TestVersionAndHelp(t *testing.T) {
	home := t.TempDir()
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, _, code := tandem(t, nil, home, "", args...)
		if code != 0 || !strings.HasPrefix(out, "tandem ") {
			t.Errorf("%v: %d %q", args, code, out)
		}
	}
	// Every subcommand explains itself: usage, what it does, its flags and
	// an example.
	for _, name := range []string{"acp", "lsp", "run", "defs", "map", "instructions", "sessions", "doctor", "login", "chat", "version"} {
		_, errOut, code := tandem(t, nil, home, "", name, "--help")
		h := helpFor(name)
		if code != 0 || !strings.Contains(errOut, "usage: tandem "+name) || h.about == "" || !strings.Contains(errOut, h.about) ||
			!strings.Contains(errOut, "\nflags:") || len(h.examples) == 0 || !strings.Contains(errOut, "examples:\n  "+h.examples[0]) {
			t.Errorf("%s --help: exit %d, %q", name, code, errOut)
		}
	}
	if _, errOut, code := tandem(t, nil, home, "", "help", "run"); code != 0 || !strings.Contains(errOut, "-output-format") {
		t.Errorf("help run: exit %d, %q", code, errOut)
	}
	// Without a terminal, tandem alone is a usage error, not a conversation.
	if _, errOut, code := tandem(t, nil, home, ""); code != 2 || !strings.Contains(errOut, "usage: tandem <command>") {
		t.Errorf("no arguments: exit %d, %q", code, errOut)
	}
	_, errOut, code := tandem(t, nil, home, "", "frobnicate")
	if code != 2 || !strings.Contains(errOut, "unknown command") {
		t.Errorf("unknown command: %d %q", code, errOut)
	}
}

// BenchmarkVersionStart measures process start to exit of `tandem version`.
func BenchmarkVersionStart(b *testing.B) {
	bin := testenv.Tandem(b)
	for i := 0; i < b.N; i++ {
		if err := exec.Command(bin, "version").Run(); err != nil {
			b.Fatal(err)
		}
	}
}
