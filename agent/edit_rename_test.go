package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// A session's edits replace a file by temporary file and rename, and keep
// nothing of their own anywhere: no spare files under $TANDEM_HOME (an
// exchange with a spare once let a reader see the file empty), nothing
// beside the file in the workspace.
func TestSessionEditsByRename(t *testing.T) {
	f := newFixture(t)
	s, _, dir := editSyncSession(t, f, map[string]string{"main.go": "a\n"})
	p := filepath.Join(dir, "main.go")
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "edit_file", `{"path":"main.go","old_string":"a","new_string":"b"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c2", "edit_file", `{"path":"main.go","old_string":"b","new_string":"c"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("edit")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "c\n" {
		t.Fatalf("main.go = %q, want both edits", got)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("the workspace holds %d entries, want only main.go", len(es))
	}
	s.Close()
	if _, err := os.Stat(filepath.Join(f.home, "spares")); !os.IsNotExist(err) {
		t.Errorf("$TANDEM_HOME/spares exists (%v): edits keep no spare files", err)
	}
}
