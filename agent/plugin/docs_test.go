package plugin_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// The Python plugin docs/plugins.md shows, run as written: the guide is
// enough to write a working plugin.
func TestDocsPythonPlugin(t *testing.T) {
	python(t)
	doc, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "docs", "plugins.md"))
	if err != nil {
		t.Fatal(err)
	}
	sec := string(doc)[strings.Index(string(doc), "## A complete plugin in Python"):]
	blocks := regexp.MustCompile("(?s)```(python|json)\n(.*?)```").FindAllStringSubmatch(sec, 2)
	if len(blocks) != 2 || blocks[0][1] != "python" || blocks[1][1] != "json" {
		t.Fatalf("the guide's example is not a python block and a json block: %v", blocks)
	}
	r := newRig(t)
	dir := filepath.Join(r.home, "plugins", "no-push")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "plugin.py"), []byte(blocks[0][2]), 0o755)
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(blocks[1][2]), 0o644)
	enable(t, r.home, "no-push", dir, nil)
	r.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"git push origin main"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "plugin__no-push__shout", Args: `{"text":"hey"}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	s, _ := r.session(t, agent.ModeFullAuto)
	prompt(t, s, "ship it")
	reqs := r.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	if !strings.HasSuffix(reqs[0].System, "Never push to git.") {
		t.Error("the rule is not in the system prompt")
	}
	if got := reqs[1].LastUserText(); !strings.Contains(got, "pushing is left to the user") {
		t.Errorf("push: %q", got)
	}
	if got := reqs[2].LastUserText(); got != "HEY" {
		t.Errorf("shout: %q", got)
	}
}
