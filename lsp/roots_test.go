package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// The client's other workspace folders become the session's further
// roots: the model is told of them and reads a file there by absolute path.
func TestWorkspaceFoldersAreRoots(t *testing.T) {
	t.Parallel()
	first, _ := filepath.EvalSymlinks(t.TempDir())
	second, _ := filepath.EvalSymlinks(t.TempDir())
	notes := filepath.Join(second, "notes.txt")
	if err := os.WriteFile(notes, []byte("from the second folder\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := llmtest.NewServer(t)
	model.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "r1", Name: "read_file", Args: `{"path":"` + notes + `"}`}}},
		llmtest.Reply{Text: []string{"read it"}},
	)
	c := startClient(t, fakeModelEnvHome(t, model, t.TempDir()))
	c.mustCall("initialize", map[string]any{
		"processId": nil, "rootUri": fileURI(first), "capabilities": map[string]any{},
		"workspaceFolders": []map[string]string{{"uri": fileURI(first), "name": "a"}, {"uri": fileURI(second), "name": "b"}},
	}, nil)
	c.notify("initialized", map[string]any{})
	var ns struct{ SessionID string }
	c.mustCall("tandem/newSession", map[string]any{}, &ns)
	c.mustCall("tandem/prompt", map[string]any{"sessionId": ns.SessionID, "prompt": []map[string]string{{"type": "text", "text": "read the notes"}}}, nil)

	reqs := model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if !strings.Contains(reqs[0].System, "Workspace root: "+first) || !strings.Contains(reqs[0].System, second) {
		t.Errorf("the system prompt does not name both folders:\n%s", reqs[0].System)
	}
	var got *llm.Part
	for _, m := range reqs[1].Messages {
		for i, p := range m.Content {
			if p.Type == llm.PartToolResult && p.ToolCallID == "r1" {
				got = &m.Content[i]
			}
		}
	}
	if got == nil || got.IsError || !strings.Contains(got.Text, "from the second folder") {
		t.Errorf("reading a file of the second folder: %+v", got)
	}
}
