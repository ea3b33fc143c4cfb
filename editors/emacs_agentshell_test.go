package editors

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// TestEmacsAgentShell runs tandem-agent-shell.el in batch Emacs 30 with
// agent-shell, acp.el and shell-maker at the commits vendored-deps.sh pins,
// against the real binary and the fake model
// (emacs/test/tandem-agent-shell-test.el does the editor side): a prompt
// edits a file after agent-shell's Allow button was pressed, the plan is
// shown once, edits that fail show as failed with their error, and a new
// shell reopens the session.
func TestEmacsAgentShell(t *testing.T) {
	t.Parallel()
	emacs := testenv.Program(t, "emacs")
	if emacsMajor(t, emacs) < 30 {
		testenv.Program(t, "emacs 30 (test.sh installs emacs-nox from bookworm-backports)")
	}
	deps := agentShellDeps(t)
	bin := tandemBin(t)
	model, env := fakeModel(t, "agent-shell.json")
	root, file := workspace(t)
	script, err := filepath.Abs(filepath.Join("emacs", "test", "tandem-agent-shell-test.el"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	result, transcript := filepath.Join(tmp, "result.json"), filepath.Join(tmp, "transcript.md")
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, emacs, "--batch", "-Q", "-l", script)
	cmd.Dir = root
	cmd.Env = append(env, "TANDEM_BIN="+bin, "DEPS="+strings.Join(deps, ":"),
		"RESULT="+result, "TRANSCRIPT="+transcript, "HOME="+t.TempDir())
	out := run(t, cmd)

	raw, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("emacs wrote no result: %v\n%s", err, out)
	}
	var res struct {
		Errors         []string `json:"errors"`
		StopReasons    []string `json:"stopReasons"`
		Permissions    int      `json:"permissions"`
		First          string   `json:"first"`
		DiskAfterFirst string   `json:"diskAfterFirst"`
		Final          string   `json:"final"`
		Session        string   `json:"session"`
		Resumed        string   `json:"resumed"`
		Reopened       string   `json:"reopened"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("result %s: %v", raw, err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("emacs reported %q\n%s\nshell buffer:\n%s", res.Errors, out, res.Final)
	}
	if res.DiskAfterFirst != "package main\ngoodbye world\nlast line\n" {
		t.Errorf("file after the approved edit = %q", res.DiskAfterFirst)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "package main\nchanged meanwhile\nlast line\n" {
		t.Errorf("file at the end = %q, %v; want the test's own change, the failed edit writing nothing", b, err)
	}
	if strings.Join(res.StopReasons, ",") != "end_turn,end_turn,end_turn,end_turn" {
		t.Errorf("stop reasons %q, want four end_turn", res.StopReasons)
	}
	if res.Permissions != 2 {
		t.Errorf("%d permission requests, want 2 (the edit whose old text is missing fails before asking)", res.Permissions)
	}
	log, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatalf("agent-shell wrote no transcript: %v", err)
	}
	checkAgentShellShell(t, res.First, res.Final)
	checkAgentShellTranscript(t, string(log))
	// The new shell listed tandem's sessions and continued the first: the
	// prompt there reached the model with the earlier conversation.
	if res.Session == "" || res.Resumed != res.Session {
		t.Errorf("reopened session %q, want the first one %q", res.Resumed, res.Session)
	}
	reqs := model.Requests()
	if len(reqs) == 0 || !strings.Contains(requestText(reqs[len(reqs)-1]), "change the greeting") ||
		!strings.Contains(res.Reopened, "Noted.") {
		t.Errorf("the prompt in the reopened shell did not continue the session:\n%s", res.Reopened)
	}
	if t.Failed() {
		t.Logf("shell buffer:\n%s\nreopened shell:\n%s\ntranscript:\n%s", res.Final, res.Reopened, log)
	}
}
