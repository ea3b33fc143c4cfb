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

// TestNeovimPlugin runs the Lua plugin in headless Neovim against the real
// binary and the fake model (neovim/test/e2e.lua does the editor side): a
// :TandemAsk over a range whose reply edits the buffer after a permission
// prompt, then undo, then :TandemMode.
func TestNeovimPlugin(t *testing.T) {
	t.Parallel()
	nvim := testenv.Program(t, "nvim")
	bin := tandemBin(t)
	model, env := fakeModel(t, "edit.json")
	root, file := workspace(t)
	plugin, err := filepath.Abs("neovim")
	if err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(t.TempDir(), "result.json")

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n",
		"--cmd", "set rtp^="+plugin, "-c", "luafile "+filepath.Join(plugin, "test", "e2e.lua"))
	cmd.Dir = root
	cmd.Env = append(env, "TANDEM_BIN="+bin, "FILE="+file, "RESULT="+result)
	out := run(t, cmd)

	raw, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, out)
	}
	var res struct {
		Errors       []string `json:"errors"`
		Root         string   `json:"root"`
		Before       []string `json:"before"`
		Lines        []string `json:"lines"`
		Undone       []string `json:"undone"`
		Modified     bool     `json:"modified"`
		StopReason   string   `json:"stopReason"`
		SecondStop   string   `json:"secondStop"`
		Chat         string   `json:"chat"`
		Mode         string   `json:"mode"`
		Model        string   `json:"model"`
		Pickers      []string `json:"pickers"`
		FirstSession string   `json:"firstSession"`
		Reopened     string   `json:"reopened"`
		ReopenedChat string   `json:"reopenedChat"`
		Asked        []struct {
			Prompt  string   `json:"prompt"`
			Options []string `json:"options"`
		} `json:"asked"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("result %s: %v", raw, err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("nvim reported %q\n%s", res.Errors, out)
	}

	if res.Root != root {
		t.Errorf("workspace root = %q, want the .git directory's parent %q", res.Root, root)
	}
	unsaved := []string{"package main", "greetings world", "last line"}
	edited := []string{"package main", "goodbye world", "last line"}
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
		t.Errorf("after u the buffer = %q, want the user's unsaved text back %q", res.Undone, unsaved)
	}

	if len(res.Asked) != 1 || !slices.Contains(res.Asked[0].Options, "allow_once") ||
		!strings.Contains(res.Asked[0].Prompt, "hello.txt") {
		t.Errorf("permission prompts = %+v, want one naming hello.txt with allow_once", res.Asked)
	}
	for _, want := range []string{"## You\n\nchange the greeting", "I will change the greeting.",
		"Changed the greeting.", "[x] Edit", "(completed)", "done (end_turn)", "mode: ask",
		"> The greeting is on line 2.", "**Plan**\n- [~] Rewrite the greeting"} {
		if !strings.Contains(res.Chat, want) {
			t.Errorf("chat buffer lacks %q:\n%s", want, res.Chat)
		}
	}
	if res.Mode != "ask" {
		t.Errorf("mode after :TandemMode ask = %q", res.Mode)
	}

	if res.SecondStop != "end_turn" || !strings.Contains(res.Chat, "Noted.") {
		t.Errorf("the second prompt ended with %q; chat:\n%s", res.SecondStop, res.Chat)
	}

	if res.Model != "claude-sonnet-4-5" || len(res.Pickers) != 2 || !strings.Contains(res.Pickers[0], "model") {
		t.Errorf(":TandemModel chose %q; pickers %q", res.Model, res.Pickers)
	}
	if res.FirstSession == "" || res.Reopened != res.FirstSession ||
		!strings.Contains(res.ReopenedChat, "change the greeting") || !strings.Contains(res.ReopenedChat, "Changed the greeting.") {
		t.Errorf(":TandemSessions reopened %q (first %q); its chat:\n%s", res.Reopened, res.FirstSession, res.ReopenedChat)
	}

	reqs := model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("model got %d requests, want 3 (an edit turn, then a plain answer)", len(reqs))
	}
	if third := requestText(reqs[2]); !strings.Contains(third, "Context: lines 3-3") || !strings.Contains(third, "last line") {
		t.Errorf("the last-line range did not reach the model:\n%s", third)
	}
	if first := requestText(reqs[0]); !strings.Contains(first, "Context: lines 1-2") || !strings.Contains(first, "greetings world") {
		t.Errorf("the range and the unsaved text did not reach the model:\n%s", first)
	}
	if strings.Contains(reqs[1].LastUserText(), "rejected") {
		t.Errorf("the edit was rejected: %s", reqs[1].LastUserText())
	}
}
