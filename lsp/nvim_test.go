package lsp_test

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

// TestNeovim runs headless Neovim's own LSP client against tandem: the
// agent's edit must land in Neovim's buffer (which holds an unsaved
// change) through workspace/applyEdit, and the file on disk must not move.
func TestNeovim(t *testing.T) {
	t.Parallel()
	nvim := testenv.Program(t, "nvim")
	bin := testenv.Tandem(t)
	model := llmtest.NewServer(t)
	model.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{editCall("hello.txt", "hello unsaved world", "hello edited world 😀")}},
		llmtest.Reply{Text: []string{"Replaced ", "it."}},
	)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const disk = "first line\nhello world\nlast line\n"
	file := filepath.Join(root, "hello.txt")
	if err := os.WriteFile(file, []byte(disk), 0o644); err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(t.TempDir(), "result.json")
	script, err := filepath.Abs("testdata/nvim_edit.lua")
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile "+script)
	cmd.Dir = root
	cmd.Env = append(fakeModelEnv(t, model), "TANDEM_BIN="+bin, "ROOT="+root, "FILE="+file, "RESULT="+result)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, out)
	}
	var res struct {
		Errors     []string `json:"errors"`
		SessionID  string   `json:"sessionId"`
		StopReason string   `json:"stopReason"`
		Lines      []string `json:"lines"`
		Modified   bool     `json:"modified"`
		Updates    int      `json:"updates"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("result %s: %v", raw, err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("nvim reported %v\n%s", res.Errors, out)
	}
	if res.StopReason != "end_turn" || res.SessionID == "" {
		t.Errorf("session %q ended with %q, want end_turn", res.SessionID, res.StopReason)
	}
	want := []string{"first line", "hello edited world 😀", "last line"}
	if strings.Join(res.Lines, "\n") != strings.Join(want, "\n") || !res.Modified {
		t.Errorf("buffer = %q (modified %v), want %q, unsaved", res.Lines, res.Modified, want)
	}
	if b, _ := os.ReadFile(file); string(b) != disk {
		t.Errorf("file on disk changed to %q", b)
	}
	if res.Updates == 0 {
		t.Error("Neovim received no tandem/update notifications")
	}
	if reqs := model.Requests(); len(reqs) != 2 || strings.Contains(reqs[1].LastUserText(), "rejected") {
		t.Errorf("model requests %d; last said %q", len(reqs), reqs[len(reqs)-1].LastUserText())
	}
}
