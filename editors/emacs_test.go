package editors

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// TestEmacsEglot runs tandem-eglot.el in batch Emacs with eglot (built
// into Emacs 29+, Debian's elpa-eglot on 28) against the real binary and the fake model
// (emacs/test/tandem-eglot-test.el does the editor side): eglot finds
// tandem through tandem-eglot-register, a prompt over a region edits the
// buffer after the permission function answered, undo takes it back, and
// tandem-eglot-set-mode switches the mode.
func TestEmacsEglot(t *testing.T) {
	t.Parallel()
	emacs := testenv.Program(t, "emacs")
	if _, err := os.Stat("/usr/share/emacs/site-lisp/elpa/eglot-1.9"); err != nil && !hasBuiltinEglot(emacs) {
		testenv.Program(t, "eglot (apt-get install elpa-eglot)")
	}
	bin := tandemBin(t)
	model, env := fakeModel(t, "edit.json")
	root, file := workspace(t)
	script, err := filepath.Abs(filepath.Join("emacs", "test", "tandem-eglot-test.el"))
	if err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(t.TempDir(), "result.json")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, emacs, "--batch", "-Q", "-l", script)
	cmd.Dir = root
	cmd.Env = append(env, "TANDEM_BIN="+bin, "FILE="+file, "RESULT="+result, "HOME="+t.TempDir())
	out := run(t, cmd)

	raw, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("emacs wrote no result: %v\n%s", err, out)
	}
	var res struct {
		Errors     []string `json:"errors"`
		Before     []string `json:"before"`
		Lines      []string `json:"lines"`
		Undone     []string `json:"undone"`
		Modified   bool     `json:"modified"`
		StopReason string   `json:"stopReason"`
		Chat       string   `json:"chat"`
		Mode       string   `json:"mode"`
		Asked      []struct {
			Title   string   `json:"title"`
			Options []string `json:"options"`
		} `json:"asked"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("result %s: %v", raw, err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("emacs reported %q\n%s", res.Errors, out)
	}
	unsaved := []string{"package main", "greetings world", "last line", ""}
	edited := []string{"package main", "goodbye world", "last line", ""}
	if !slices.Equal(res.Before, unsaved) {
		t.Fatalf("buffer before the prompt = %q, want %q", res.Before, unsaved)
	}
	if res.StopReason != "end_turn" {
		t.Errorf("stop reason %q, want end_turn", res.StopReason)
	}
	if !slices.Equal(res.Lines, edited) || !res.Modified {
		t.Errorf("buffer after the prompt = %q (modified %v), want %q unsaved", res.Lines, res.Modified, edited)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != diskText {
		t.Errorf("file on disk = %q, %v; want it untouched: %q", b, err, diskText)
	}
	if !slices.Equal(res.Undone, unsaved) {
		t.Errorf("after undo the buffer = %q, want the unsaved text back %q", res.Undone, unsaved)
	}
	if len(res.Asked) != 1 || !strings.Contains(res.Asked[0].Title, "hello.txt") || !slices.Contains(res.Asked[0].Options, "allow_once") {
		t.Errorf("permission prompts = %+v, want one about hello.txt offering allow_once", res.Asked)
	}
	for _, want := range []string{"> change the greeting", "tandem: I will change the greeting.",
		"- [completed] Edit", "Changed the greeting.", "done (end_turn)", "mode: ask",
		"(thinking) The greeting is on line 2.", "Plan:\n  [in_progress] Rewrite the greeting"} {
		if !strings.Contains(res.Chat, want) {
			t.Errorf("chat buffer lacks %q:\n%s", want, res.Chat)
		}
	}
	reqs := model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("model got %d requests, want 2", len(reqs))
	}
	if first := requestText(reqs[0]); !strings.Contains(first, "Context: lines 1-2") || !strings.Contains(first, "greetings world") {
		t.Errorf("the region and the unsaved text did not reach the model:\n%s", first)
	}
}

// hasBuiltinEglot reports whether this Emacs (29+) ships eglot itself.
func hasBuiltinEglot(emacs string) bool {
	out, err := exec.Command(emacs, "--batch", "-Q", "--eval", `(princ (if (locate-library "eglot") "yes" "no"))`).Output()
	return err == nil && strings.TrimSpace(string(out)) == "yes"
}
