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

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestEmacsGhostText runs tandem-eglot-ghost.el in batch Emacs against
// the real tandem lsp with its completion model a fake FIM server
// (emacs/test/tandem-eglot-ghost-test.el does the editor side): typing
// shows the suggestion as an overlay, TAB inserts it, undo takes it back.
func TestEmacsGhostText(t *testing.T) {
	t.Parallel()
	emacs := testenv.Program(t, "emacs")
	if _, err := os.Stat("/usr/share/emacs/site-lisp/elpa/eglot-1.9"); err != nil && !hasBuiltinEglot(emacs) {
		testenv.Program(t, "eglot (apt-get install elpa-eglot)")
	}
	bin := tandemBin(t)
	fim := llmtest.NewFIMServer(t)
	fim.Handle(func(r *llmtest.FIMRequest) llmtest.FIMReply {
		if strings.HasSuffix(strings.SplitN(r.Prompt, "<|fim_suffix|>", 2)[0], "complete me:") {
			return llmtest.FIMReply{Chunks: []string{" ghost text works"}}
		}
		return llmtest.FIMReply{}
	})
	home := t.TempDir()
	t.Cleanup(func() { testenv.WaitNoProcess(t, "TANDEM_HOME="+home, 10*time.Second) })
	cfg, _ := json.Marshal(map[string]any{"completion": map[string]any{"provider": "ollama", "model": "qwen2.5-coder:1.5b", "baseURL": fim.URL}})
	if err := os.WriteFile(filepath.Join(home, "config.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	root, file := workspace(t)
	script, err := filepath.Abs(filepath.Join("emacs", "test", "tandem-eglot-ghost-test.el"))
	if err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(t.TempDir(), "result.json")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, emacs, "--batch", "-Q", "-l", script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "TANDEM_HOME="+home, "TANDEM_BIN="+bin, "FILE="+file, "RESULT="+result, "HOME="+t.TempDir())
	out := run(t, cmd)

	raw, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("emacs wrote no result: %v\n%s", err, out)
	}
	var res struct {
		Errors   []string `json:"errors"`
		Mode     bool     `json:"mode"`
		Ghost    string   `json:"ghost"`
		Shown    string   `json:"shown"`
		Accepted string   `json:"accepted"`
		Undone   string   `json:"undone"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("result %s: %v", raw, err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("emacs reported %q\n%s", res.Errors, out)
	}
	if !res.Mode {
		t.Error("tandem-eglot-ghost-mode did not turn on for a server with completions")
	}
	if res.Ghost != " ghost text works" || res.Shown != " ghost text works" {
		t.Errorf("ghost text %q, overlay %q", res.Ghost, res.Shown)
	}
	if want := diskText + "complete me: ghost text works"; res.Accepted != want {
		t.Errorf("after TAB: %q, want %q", res.Accepted, want)
	}
	if want := diskText + "complete me:"; res.Undone != want {
		t.Errorf("after undo: %q, want %q", res.Undone, want)
	}
}
