package acp

import (
	"path/filepath"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// A CRLF file edited through the real `tandem acp` with the LF strings a
// model writes: the diff the editor is asked about and the text it is told
// to write both keep CRLF on every line, for edit_file and write_file.
func TestCRLFFileKeepsLineEndings(t *testing.T) {
	const old = "one\r\ntwo\r\nthree\r\n"
	const edited = "one\r\n2\r\n2.5\r\nthree\r\n"
	const written = "uno\r\ndos\r\n"
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "call_edit", Name: "edit_file",
			Args: `{"path":"win.txt","old_string":"one\ntwo\n","new_string":"one\n2\n2.5\n"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "call_write", Name: "write_file",
			Args: `{"path":"other.txt","content":"uno\ndos\n"}`}}},
		llmtest.Reply{Text: []string{"Done."}},
	)
	ed := newEditor(t)
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, false)
	dir := workspace(t, map[string]string{"win.txt": old, "other.txt": "a\r\nb\r\n"})
	sid := p.newSession(t, dir)
	if reason, err := p.prompt(t, sid, "edit both"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %q, %v", reason, err)
	}
	ed.mu.Lock()
	perms, writes := ed.permissions, ed.writes
	ed.mu.Unlock()
	if len(perms) != 2 || len(writes) != 2 {
		t.Fatalf("%d permission requests and %d writes, want 2 each: %s", len(perms), len(writes), jsonString(writes))
	}
	for i, want := range []struct{ path, old, new string }{
		{filepath.Join(dir, "win.txt"), old, edited},
		{filepath.Join(dir, "other.txt"), "a\r\nb\r\n", written},
	} {
		diff := findDiff(t, perms[i].ToolCall.Content)
		if diff == nil || diff.Path != want.path || diff.OldText == nil || *diff.OldText != want.old || diff.NewText != want.new {
			t.Errorf("permission %d diff: %s, want %q -> %q", i, jsonString(perms[i].ToolCall.Content), want.old, want.new)
		}
		if writes[i].Path != want.path || writes[i].Content != want.new {
			t.Errorf("write %d: %q to %s, want %q", i, writes[i].Content, writes[i].Path, want.new)
		}
	}
}
