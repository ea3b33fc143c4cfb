package plugin_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// example builds examples/plugins/<name> into a plugin folder under
// plugins and enables it.
func example(t *testing.T, home, name string) {
	t.Helper()
	src := filepath.Join(testenv.RepoRoot(t), "examples", "plugins", name)
	dir := filepath.Join(home, "plugins", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), ".")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", name, err, out)
	}
	m, err := os.ReadFile(filepath.Join(src, "plugin.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "plugin.json"), m, 0o644)
	enable(t, home, name, dir, nil)
}

func TestExamplePlugins(t *testing.T) {
	r := newRig(t)
	example(t, r.home, "rmguard")
	example(t, r.home, "wordcount")
	os.WriteFile(filepath.Join(r.root, "a.txt"), []byte("one two\nthree\n"), 0o644)
	os.Mkdir(filepath.Join(r.root, "build"), 0o755)
	os.Symlink("/etc/hostname", filepath.Join(r.root, "sneaky")) // inside the grant, pointing out
	outside := t.TempDir()
	r.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"rm -rf ` + outside + `"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"rm -rf build && echo cleaned"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "plugin__wordcount__count_words", Args: `{"path":"a.txt"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "plugin__wordcount__count_words", Args: `{"path":"/etc/hostname"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "plugin__wordcount__count_words", Args: `{"path":"sneaky"}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	s, _ := r.session(t, agent.ModeFullAuto)
	prompt(t, s, "tidy up")
	reqs := r.srv.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d requests", len(reqs))
	}
	if !strings.Contains(reqs[0].System, "a recursive forced rm (rm -rf) outside it will be refused") {
		t.Errorf("rule missing from the system prompt")
	}
	if got := reqs[1].LastUserText(); !strings.Contains(got, "rmguard plugin refused it: rm -rf of "+outside+" is outside the workspace") {
		t.Errorf("outside removal: %q", got)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("the outside folder is gone: %v", err)
	}
	if got := reqs[2].LastUserText(); !strings.Contains(got, "cleaned") {
		t.Errorf("inside removal: %q", got)
	}
	if got := reqs[3].LastUserText(); got != "a.txt: 2 lines, 3 words, 14 bytes" {
		t.Errorf("count_words: %q", got)
	}
	for _, i := range []int{4, 5} {
		if got := reqs[i].LastUserText(); !strings.Contains(got, "outside the plugin's permissions.filesystem") {
			t.Errorf("read outside the grant: %q", got)
		}
	}
}
