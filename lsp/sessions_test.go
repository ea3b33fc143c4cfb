package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestSessionMethods: a session's instructions and mode, then, in a new
// process, listSessions and loadSession replaying the history as
// tandem/update before the response.
func TestSessionMethods(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("Use tabs.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := llmtest.NewServer(t)
	model.Enqueue(llmtest.Reply{Text: []string{"hi ", "there"}})

	a := startClient(t, fakeModelEnvHome(t, model, home))
	a.initialize(root, map[string]any{})
	var ns struct{ SessionID string }
	a.mustCall("tandem/newSession", map[string]any{"cwd": root}, &ns)
	a.mustCall("tandem/prompt", map[string]any{"sessionId": ns.SessionID, "prompt": []map[string]string{{"type": "text", "text": "hello"}}}, nil)

	var instr struct {
		Scopes []struct{ Path, File string } `json:"scopes"`
	}
	a.mustCall("tandem/instructions", map[string]any{"sessionId": ns.SessionID}, &instr)
	if len(instr.Scopes) == 0 || !strings.Contains(instr.Scopes[0].Path+instr.Scopes[0].File, "AGENTS.md") {
		t.Errorf("tandem/instructions = %+v, want AGENTS.md loaded", instr)
	}

	before := len(a.messages())
	a.mustCall("tandem/setMode", map[string]any{"sessionId": ns.SessionID, "modeId": "ask"}, nil)
	a.waitMsgFrom(before, "current_mode_update", func(m rpcMsg) bool {
		return m.Method == "tandem/update" && strings.Contains(string(m.Params), `"currentModeId":"ask"`)
	})
	if _, err := a.call("tandem/setMode", map[string]any{"sessionId": ns.SessionID, "modeId": "yolo"}); err == nil || err.Code != -32602 {
		t.Errorf("unknown mode: %v, want InvalidParams", err)
	}
	if _, err := a.call("tandem/prompt", map[string]any{"sessionId": "nope", "prompt": []any{}}); err == nil || err.Code != -32602 {
		t.Errorf("unknown session: %v, want InvalidParams", err)
	}
	a.mustCall("shutdown", nil, nil)
	a.notify("exit", nil)
	a.waitExit()

	b := startClient(t, fakeModelEnvHome(t, model, home))
	b.initialize(root, map[string]any{})
	var list struct {
		Sessions []struct{ SessionID, Cwd, Title string } `json:"sessions"`
	}
	b.mustCall("tandem/listSessions", map[string]any{"cwd": root}, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].SessionID != ns.SessionID || list.Sessions[0].Cwd != root {
		t.Fatalf("listSessions = %+v, want the one session in %s", list, root)
	}
	id, ch := b.start("tandem/loadSession", map[string]any{"sessionId": ns.SessionID, "cwd": root})
	res, rerr := b.await("tandem/loadSession", ch)
	if rerr != nil {
		t.Fatal(rerr)
	}
	var lr struct {
		Modes struct{ CurrentModeID string } `json:"modes"`
	}
	json.Unmarshal(res, &lr)
	if lr.Modes.CurrentModeID != "ask" {
		t.Errorf("loaded mode %q, want ask", lr.Modes.CurrentModeID)
	}
	var replay, user, agentText strings.Builder
	for _, m := range b.messages() {
		if m.Method == "" && string(m.ID) == jsonInt(id) {
			break
		}
		if m.Method == "tandem/update" {
			var u updateNote
			json.Unmarshal(m.Params, &u)
			if u.SessionID != ns.SessionID {
				t.Errorf("replayed update for %q", u.SessionID)
			}
			var c struct{ Text string }
			json.Unmarshal(u.Update.Content, &c)
			replay.WriteString(u.Update.SessionUpdate + ":" + c.Text + "|")
			switch u.Update.SessionUpdate {
			case "user_message_chunk":
				user.WriteString(c.Text)
			case "agent_message_chunk":
				agentText.WriteString(c.Text)
			}
		}
	}
	if user.String() != "hello" || agentText.String() != "hi there" {
		t.Errorf("replay before the loadSession response = %q, want the user's hello and the agent's hi there", replay.String())
	}
}

// TestWorkspaceSymbol searches the workspace folder's code index.
func TestWorkspaceSymbol(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(root, "shapes.go"), []byte("package shapes\n\ntype Circle struct{}\n\nfunc NewCircle() *Circle { return nil }\n"), 0o644)
	os.WriteFile(filepath.Join(root, "other.py"), []byte("def unrelated():\n    pass\n"), 0o644)
	c := startClient(t, fakeModelEnv(t, nil))
	c.initialize(root, map[string]any{})
	var syms []struct {
		Name     string `json:"name"`
		Kind     int    `json:"kind"`
		Location struct {
			URI   string    `json:"uri"`
			Range wireRange `json:"range"`
		} `json:"location"`
	}
	c.mustCall("workspace/symbol", map[string]any{"query": "nwcrc"}, &syms)
	if len(syms) != 1 || syms[0].Name != "NewCircle" || syms[0].Kind != 12 ||
		syms[0].Location.URI != fileURI(filepath.Join(root, "shapes.go")) || syms[0].Location.Range.Start.Line != 4 {
		t.Errorf("workspace/symbol nwcrc = %+v, want NewCircle at shapes.go line 5", syms)
	}
}

// TestCreateFileWithoutResourceOperations: eglot cannot create files, so
// the new file is written to disk and shown with window/showDocument.
func TestCreateFileWithoutResourceOperations(t *testing.T) {
	t.Parallel()
	caps := map[string]any{"workspace": map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}},
		"window": map[string]any{"showDocument": map[string]any{"support": true}}}
	args, _ := json.Marshal(map[string]string{"path": "new.txt", "content": "fresh 😀\n"})
	f := newFixture(t, caps, "full-auto",
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: string(args)}}},
		llmtest.Reply{Text: []string{"ok"}})
	var shown []string
	f.c.onRequest(func(method string, params json.RawMessage) (any, *rpcError) {
		if method == "window/showDocument" {
			var p struct{ URI string }
			json.Unmarshal(params, &p)
			shown = append(shown, p.URI)
			return map[string]bool{"success": true}, nil
		}
		return nil, &rpcError{Code: -32601, Message: "unexpected " + method}
	})
	if _, err := f.prompt("create new.txt"); err != nil {
		t.Fatal(err)
	}
	if d := f.disk("new.txt"); d != "fresh 😀\n" {
		t.Errorf("new.txt = %q", d)
	}
	if len(shown) != 1 || shown[0] != fileURI(filepath.Join(f.root, "new.txt")) {
		t.Errorf("showDocument calls %v", shown)
	}
}

// TestCodeAction offers the two tandem actions on a selection, only the
// fix on a bare cursor with a diagnostic, nothing on a clean cursor, and
// runs one through workspace/executeCommand as a prompt about the
// selection.
func TestCodeAction(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]any{}, "", llmtest.Reply{Text: []string{"It adds."}})
	path := f.write("a.go", "package a\n\nfunc add(a, b int) int { return a - b }\n")
	newEditor("utf-16").open(f.c, path, "package a\n\nfunc add(a, b int) int { return a - b }\n")
	diag := map[string]any{"range": wireRange{Start: wirePos{2, 32}, End: wirePos{2, 37}}, "message": "suspicious subtraction", "source": "vet"}
	var actions []struct {
		Title   string `json:"title"`
		Command struct {
			Command   string            `json:"command"`
			Arguments []json.RawMessage `json:"arguments"`
		} `json:"command"`
	}
	f.c.mustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]string{"uri": fileURI(path)},
		"range":        wireRange{Start: wirePos{2, 0}, End: wirePos{3, 0}},
		"context":      map[string]any{"diagnostics": []any{diag}},
	}, &actions)
	if len(actions) != 2 || actions[0].Title != "Ask tandem about this" || actions[1].Title != "Fix with tandem" {
		t.Fatalf("code actions %+v", actions)
	}
	fix := actions[1].Command
	// The ids are namespaced so a client registering them as editor
	// commands cannot collide with an extension's own tandem.* commands.
	if actions[0].Command.Command != "tandem.lsp.ask" || fix.Command != "tandem.lsp.fix" {
		t.Errorf("command ids %q, %q, want tandem.lsp.ask, tandem.lsp.fix", actions[0].Command.Command, fix.Command)
	}
	cursor := wireRange{Start: wirePos{2, 4}, End: wirePos{2, 4}}
	for _, tc := range []struct {
		diags []any
		want  int
	}{{nil, 0}, {[]any{diag}, 1}} {
		var got []struct {
			Title string `json:"title"`
		}
		f.c.mustCall("textDocument/codeAction", map[string]any{
			"textDocument": map[string]string{"uri": fileURI(path)},
			"range":        cursor,
			"context":      map[string]any{"diagnostics": tc.diags},
		}, &got)
		if len(got) != tc.want || (tc.want == 1 && got[0].Title != "Fix with tandem") {
			t.Errorf("cursor with %d diagnostics: code actions %+v, want %d", len(tc.diags), got, tc.want)
		}
	}
	var res struct {
		SessionID  string `json:"sessionId"`
		StopReason string `json:"stopReason"`
	}
	f.c.mustCall("workspace/executeCommand", map[string]any{"command": fix.Command, "arguments": fix.Arguments}, &res)
	if res.SessionID != f.session || res.StopReason != "end_turn" {
		t.Errorf("executeCommand = %+v, want the existing session %s to end its turn", res, f.session)
	}
	sent := f.lastUserText()
	if !strings.Contains(sent, "suspicious subtraction") || !strings.Contains(sent, "return a - b") {
		t.Errorf("model prompt %q lacks the diagnostic or the selected code", sent)
	}
}
