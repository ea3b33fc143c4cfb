package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestRunPermissionRules: `tandem run` without a terminal cannot ask, but
// a rule in .tandem/settings.local.json lets its command through, the
// user's deny rule refuses another, and `tandem run /permissions` prints
// the rules with their files.
func TestRunPermissionRules(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"permissions": {"deny": ["Bash(rm:*)"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(work, ".tandem"), 0o755)
	if err := os.WriteFile(filepath.Join(work, ".tandem", "settings.local.json"), []byte(`{"permissions": {"allow": ["run_command(touch:*)", "Bash(rm:*)"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(work, "keep.txt"), []byte("k"), 0o644)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "t", Name: "run_command", Args: `{"command":"touch made.txt"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "r", Name: "run_command", Args: `{"command":"rm keep.txt"}`}}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	if _, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work, "make", "a", "file"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(work, "made.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(work, "keep.txt")); err != nil {
		t.Errorf("the denied command ran: %v", err)
	}
	if r := srv.Requests(); len(r) < 3 || !strings.Contains(r[2].LastUserText(), "run_command(rm:*) in ~/config.json") {
		t.Errorf("the model was not told which rule refused rm")
	}

	out, errOut, code := tandem(t, nil, home, "", "run", "--cwd", work, "/permissions")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []string{"deny:\n  Bash(rm:*) — ~/config.json", "allow:\n  run_command(touch:*) — .tandem/settings.local.json"} {
		if !strings.Contains(out, w) {
			t.Errorf("/permissions lacks %q:\n%s", w, out)
		}
	}
}
