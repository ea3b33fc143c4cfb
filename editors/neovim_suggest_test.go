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

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestNeovimSuggestions runs the kit's ghost text and next edit in the
// Neovim the tests install against the real tandem lsp, its completion
// model a fake FIM server and its chat model the fake model
// (neovim/test/suggest.lua does the editor side). On Neovim before 0.12
// the kit draws the ghost text itself with extmarks: that path is checked
// here on Debian's 0.7.
func TestNeovimSuggestions(t *testing.T) {
	t.Parallel()
	nvim := testenv.Program(t, "nvim")
	bin := tandemBin(t)
	fim := llmtest.NewFIMServer(t)
	fim.Handle(func(*llmtest.FIMRequest) llmtest.FIMReply {
		return llmtest.FIMReply{Chunks: []string{"a, b int) int {\n\treturn a * b\n}"}}
	})
	model := llmtest.NewServer(t)
	model.Enqueue(llmtest.Reply{Text: []string{"<<<<<<< SEARCH calc_test.go\n\tif Add(1, 2) != 3 {\n=======\n\tif Sum(1, 2) != 3 {\n>>>>>>> REPLACE\n"}})
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	test := "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal()\n\t}\n}\n"
	files := map[string]string{"calc.go": src, "calc_test.go": test}
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	t.Cleanup(func() { testenv.WaitNoProcess(t, "TANDEM_HOME="+home, 10*time.Second) })
	cfg, _ := json.Marshal(map[string]any{"completion": map[string]any{"provider": "ollama", "model": "qwen2.5-coder:1.5b", "baseURL": fim.URL}})
	if err := os.WriteFile(filepath.Join(home, "config.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	plugin, err := filepath.Abs("neovim")
	if err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(t.TempDir(), "result.json")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n",
		"--cmd", "set rtp^="+plugin, "-c", "luafile "+filepath.Join(plugin, "test", "suggest.lua"))
	cmd.Dir = root
	cmd.Env = append(testenv.ModelEnv(home, model.BaseURL(llmtest.Anthropic)),
		"TANDEM_BIN="+bin, "FILE="+filepath.Join(root, "calc.go"), "RESULT="+result)
	out := run(t, cmd)

	raw, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, out)
	}
	var res struct {
		Errors       []string `json:"errors"`
		Builtin      bool     `json:"builtin"`
		Advertised   bool     `json:"advertised"`
		Ghost        string   `json:"ghost"`
		Marks        int      `json:"marks"`
		Accepted     []string `json:"accepted"`
		Undone       []string `json:"undone"`
		NextURI      string   `json:"nextUri"`
		ShownLines   int      `json:"shownLines"`
		NextAccepted []string `json:"nextAccepted"`
		NextUndone   []string `json:"nextUndone"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("result %s: %v", raw, err)
	}
	t.Logf("result: %s", raw)
	if len(res.Errors) > 0 {
		t.Fatalf("nvim reported %q\n%s", res.Errors, out)
	}
	if !res.Advertised {
		t.Error("the server did not advertise inlineCompletionProvider")
	}
	if res.Builtin {
		t.Log("this Neovim has vim.lsp.inline_completion: the built-in path ran, not the extmarks")
	} else if res.Marks == 0 {
		t.Error("no extmark drew the ghost text")
	}
	if res.Ghost != "a, b int) int {\n\treturn a * b\n}" {
		t.Errorf("ghost text %q", res.Ghost)
	}
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	if want := append(slices.Clone(lines), "func Mul(a, b int) int {", "\treturn a * b", "}"); !slices.Equal(res.Accepted, want) {
		t.Errorf("after <Tab>: %q, want %q", res.Accepted, want)
	}
	if !slices.Equal(res.Undone, lines) {
		t.Errorf("after u: %q, want %q", res.Undone, lines)
	}
	testLines := strings.Split(strings.TrimSuffix(test, "\n"), "\n")
	if res.NextURI != "file://"+filepath.Join(root, "calc_test.go") || res.ShownLines == 0 {
		t.Errorf("next edit for %s, %d marks", res.NextURI, res.ShownLines)
	}
	renamed := slices.Clone(testLines)
	renamed[5] = "\tif Sum(1, 2) != 3 {"
	if !slices.Equal(res.NextAccepted, renamed) {
		t.Errorf("after accepting the next edit: %q, want %q", res.NextAccepted, renamed)
	}
	if !slices.Equal(res.NextUndone, testLines) {
		t.Errorf("after undoing it: %q", res.NextUndone)
	}
	if reqs := model.Requests(); len(reqs) != 1 || !strings.Contains(reqs[0].LastUserText(), "+func Sum(a, b int) int {") {
		t.Errorf("next-edit requests: %d", len(reqs))
	}
}
