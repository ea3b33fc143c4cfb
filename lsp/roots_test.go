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

// TestForkAdditionalDirectories: tandem/forkSession without
// additionalDirectories keeps the parent's roots (here a second workspace
// folder); with some, the fork has exactly those; a bad one is refused as
// a new session's would be, and leaves no copy behind. tandem/newSession
// takes a list in place of the workspace folders too.
func TestForkAdditionalDirectories(t *testing.T) {
	t.Parallel()
	var dirs [3]string
	for i := range dirs {
		dirs[i], _ = filepath.EvalSymlinks(t.TempDir())
	}
	primary, second, third := dirs[0], dirs[1], dirs[2]
	model := llmtest.NewServer(t)
	model.Enqueue(llmtest.Reply{Text: []string{"parent"}}, llmtest.Reply{Text: []string{"kept"}}, llmtest.Reply{Text: []string{"replaced"}})
	c := startClient(t, fakeModelEnvHome(t, model, t.TempDir()))
	c.mustCall("initialize", map[string]any{
		"processId": nil, "rootUri": fileURI(primary), "capabilities": map[string]any{},
		"workspaceFolders": []map[string]string{{"uri": fileURI(primary), "name": "a"}, {"uri": fileURI(second), "name": "b"}},
	}, nil)
	c.notify("initialized", map[string]any{})
	var ns struct{ SessionID string }
	c.mustCall("tandem/newSession", map[string]any{}, &ns)
	prompt := func(id, text string) {
		t.Helper()
		c.mustCall("tandem/prompt", map[string]any{"sessionId": id, "prompt": []map[string]string{{"type": "text", "text": text}}}, nil)
	}
	prompt(ns.SessionID, "parent turn")
	fork := func(params map[string]any) string {
		t.Helper()
		params["sessionId"], params["cwd"] = ns.SessionID, primary
		var f struct{ SessionID string }
		c.mustCall("tandem/forkSession", params, &f)
		if f.SessionID == "" || f.SessionID == ns.SessionID {
			t.Fatalf("fork: %+v", f)
		}
		prompt(f.SessionID, "fork turn")
		return f.SessionID
	}
	kept := fork(map[string]any{})
	replaced := fork(map[string]any{"additionalDirectories": []string{third}})
	reqs := model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	if !strings.Contains(reqs[1].System, second) {
		t.Errorf("a fork naming no directories lost the parent's %s:\n%s", second, reqs[1].System)
	}
	if !strings.Contains(reqs[2].System, third) || strings.Contains(reqs[2].System, second) {
		t.Errorf("a fork naming %s has other roots:\n%s", third, reqs[2].System)
	}

	// listed gives each listed session's further roots.
	listed := func() map[string]string {
		var l struct {
			Sessions []struct {
				SessionID             string
				AdditionalDirectories []string
			}
		}
		c.mustCall("tandem/listSessions", map[string]any{}, &l)
		out := map[string]string{}
		for _, s := range l.Sessions {
			out[s.SessionID] = strings.Join(s.AdditionalDirectories, ",")
		}
		return out
	}
	list := listed()
	if list[ns.SessionID] != second || list[kept] != second || list[replaced] != third {
		t.Errorf("tandem/listSessions gives the roots %v; want %s for the parent and the first fork, %s for the second", list, second, third)
	}
	count := func() int { return len(listed()) }
	before := count()
	for _, bad := range []string{"relative/dir", filepath.Join(third, "missing")} {
		_, err := c.call("tandem/forkSession", map[string]any{"sessionId": ns.SessionID, "cwd": primary, "additionalDirectories": []string{bad}})
		if err == nil || err.Code != -32602 || !strings.Contains(err.Message, bad) {
			t.Errorf("a fork with additional directory %q: %v, want -32602 naming it", bad, err)
		}
	}
	if after := count(); after != before {
		t.Errorf("refused forks left copies: %d sessions listed, %d before", after, before)
	}

	// tandem/newSession takes a list instead of the workspace folders,
	// checked the same way.
	var own struct{ SessionID string }
	c.mustCall("tandem/newSession", map[string]any{"additionalDirectories": []string{third}}, &own)
	if got := listed()[own.SessionID]; got != third {
		t.Errorf("a new session naming %s has the roots %q", third, got)
	}
	if _, err := c.call("tandem/newSession", map[string]any{"additionalDirectories": []string{"relative/dir"}}); err == nil || err.Code != -32602 {
		t.Errorf("a new session with a relative additional directory: %v, want -32602", err)
	}
}
