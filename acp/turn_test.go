package acp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// More turns against the real binary: prompt content kinds, cancellation
// while the agent waits on the editor, slash commands.

func TestPromptContentKinds(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"Seen."}})
	ed := newEditor(t)
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, false)
	dir := workspace(t, map[string]string{"linked.txt": "on disk\n"})
	linked := filepath.Join(dir, "linked.txt")
	ed.buffers[linked] = "linked buffer text\n"
	sid := p.newSession(t, dir)
	const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
	resp, err := p.conn.Prompt(ctxT(t), sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{
		sdk.TextBlock("look at these"),
		sdk.ResourceLinkBlock("linked.txt", "file://"+linked),
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file://" + filepath.Join(dir, "pasted.go"), Text: "embedded resource text"}}),
		sdk.ImageBlock(png, "image/png"),
	}})
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %v, %v", resp, err)
	}
	req := srv.Requests()[0]
	user := req.Messages[len(req.Messages)-1]
	var text strings.Builder
	images := 0
	for _, part := range user.Content {
		switch part.Type {
		case llm.PartText:
			text.WriteString(part.Text)
		case llm.PartImage:
			images++
			if part.Data() != png || part.MediaType() != "image/png" {
				t.Errorf("image part %q %q", part.MediaType(), part.Data())
			}
		}
	}
	for _, want := range []string{"look at these", "linked buffer text", "embedded resource text"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the model request lacks %q: %s", want, text.String())
		}
	}
	if images != 1 {
		t.Errorf("%d images reached the model, want 1", images)
	}
}

func TestCancelWithdrawsPermissionRequest(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"new.txt","content":"x"}`}}},
		llmtest.Reply{Text: []string{"next turn"}},
	)
	ed := newEditor(t)
	ed.holdPermission = true
	ed.asked = make(chan struct{}, 1)
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, false)
	dir := workspace(t, nil)
	sid := p.newSession(t, dir)
	done := make(chan sdk.StopReason, 1)
	go func() {
		r, err := p.prompt(t, sid, "create new.txt")
		if err != nil {
			t.Errorf("prompt: %v", err)
		}
		done <- r
	}()
	select {
	case <-ed.asked:
	case <-time.After(10 * time.Second):
		t.Fatal("no permission request")
	}
	if err := p.conn.Cancel(ctxT(t), sdk.CancelNotification{SessionId: sid}); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r != sdk.StopReasonCancelled {
			t.Errorf("stop reason %q, want cancelled", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the prompt did not end after session/cancel")
	}
	ed.await(t, "the pending permission request's withdrawal", func() bool {
		ed.mu.Lock()
		defer ed.mu.Unlock()
		return ed.withdrawn == 1
	})
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); err == nil {
		t.Error("the file was created although the turn was cancelled")
	}
	ed.mu.Lock()
	ed.holdPermission = false
	ed.mu.Unlock()
	if r, err := p.prompt(t, sid, "carry on"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("prompt after cancel: %q, %v", r, err)
	}
}

func TestCancelKillsEditorTerminal(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"sleep 30"}`}}})
	ed := newEditor(t)
	created := make(chan struct{})
	ed.onUpdate = func(_ string, r recorded) {
		if r.u.Tool != nil {
			for _, c := range r.u.Tool.Content {
				if c.Type == "terminal" {
					select {
					case <-created:
					default:
						close(created)
					}
				}
			}
		}
	}
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, true)
	sid := p.newSession(t, workspace(t, nil))
	if _, err := p.conn.SetSessionMode(ctxT(t), sdk.SetSessionModeRequest{SessionId: sid, ModeId: "full-auto"}); err != nil {
		t.Fatal(err)
	}
	done := make(chan sdk.StopReason, 1)
	go func() {
		r, _ := p.prompt(t, sid, "sleep")
		done <- r
	}()
	select {
	case <-created:
	case <-time.After(10 * time.Second):
		t.Fatal("the command never showed its terminal")
	}
	start := time.Now()
	if err := p.conn.Cancel(ctxT(t), sdk.CancelNotification{SessionId: sid}); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r != sdk.StopReasonCancelled {
			t.Errorf("stop reason %q", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the prompt did not end after session/cancel")
	}
	t.Logf("cancel with a running terminal answered after %v", time.Since(start))
	ed.mu.Lock()
	killed, released := ed.killed, ed.released
	ed.mu.Unlock()
	if len(killed) != 1 || len(released) != 1 {
		t.Errorf("terminal/kill %v, terminal/release %v; want one each", killed, released)
	}
}

func TestSlashCommandsChangeModeAndModel(t *testing.T) {
	srv := llmtest.NewServer(t)
	ed := newEditor(t)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"models":["other-model"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startTandem(t, srv, home, ed)
	p.initialize(t, true, true)
	sid := p.newSession(t, workspace(t, nil))
	if r, err := p.prompt(t, sid, "/mode auto-edit"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("/mode: %q, %v", r, err)
	}
	if r, err := p.prompt(t, sid, "/model other-model"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("/model: %q, %v", r, err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("slash commands reached the model %d times", n)
	}
	var modeUpdate bool
	var configs []string
	for _, r := range ed.sessionUpdates(sid) {
		if r.u.Type == agent.CurrentModeUpdate && r.u.ModeID == "auto-edit" {
			modeUpdate = true
		}
		if r.kind == "config_option_update" {
			configs = append(configs, r.raw)
		}
	}
	if !modeUpdate {
		t.Error("no current_mode_update for /mode")
	}
	if len(configs) != 2 || !strings.Contains(configs[0], `"currentValue":"auto-edit"`) || !strings.Contains(configs[1], `"currentValue":"other-model"`) {
		t.Errorf("config_option_update after /mode and /model: %v", configs)
	}
}

func TestPermissionCancelledByEditorEndsTurn(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"sub/dir/new.txt","content":"x"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"sub/dir/new.txt","content":"x"}`}}},
		llmtest.Reply{Text: []string{"created"}},
	)
	ed := newEditor(t)
	ed.answer = func(sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		return sdk.NewRequestPermissionOutcomeCancelled()
	}
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, false)
	dir := workspace(t, nil)
	sid := p.newSession(t, dir)
	if r, err := p.prompt(t, sid, "create it"); err != nil || r != sdk.StopReasonCancelled {
		t.Fatalf("a cancelled permission answer: %q, %v; want stop reason cancelled", r, err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("the model was asked %d times after the turn ended, want 1 request in all", n)
	}
	// Allowed this time: the file is created through the editor, in a
	// directory that did not exist.
	ed.mu.Lock()
	ed.answer = func(sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		return sdk.NewRequestPermissionOutcomeSelected("allow_once")
	}
	ed.mu.Unlock()
	if r, err := p.prompt(t, sid, "create it now"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("second prompt: %q, %v", r, err)
	}
	ed.mu.Lock()
	defer ed.mu.Unlock()
	if len(ed.writes) != 1 || ed.writes[0].Path != filepath.Join(dir, "sub", "dir", "new.txt") {
		t.Errorf("writes: %s", jsonString(ed.writes))
	}
}

func TestInitAndInstructionsCommands(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"AGENTS.md","content":"# Agents\n\nRun go test ./...\n"}`}}},
		llmtest.Reply{Text: []string{"Drafted AGENTS.md."}},
	)
	ed := newEditor(t)
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, false)
	dir := workspace(t, map[string]string{"go.mod": "module example.com/x\n"})
	sid := p.newSession(t, dir)
	if _, err := p.conn.SetSessionMode(ctxT(t), sdk.SetSessionModeRequest{SessionId: sid, ModeId: "full-auto"}); err != nil {
		t.Fatal(err)
	}
	if r, err := p.prompt(t, sid, "/init"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("/init: %q, %v", r, err)
	}
	ed.mu.Lock()
	writes, perms := ed.writes, len(ed.permissions)
	ed.mu.Unlock()
	if len(writes) != 1 || writes[0].Path != filepath.Join(dir, "AGENTS.md") {
		t.Fatalf("/init wrote %s", jsonString(writes))
	}
	if perms != 1 {
		t.Errorf("AGENTS.md is protected and must ask even in full-auto; %d permission requests", perms)
	}
	before, said := len(srv.Requests()), ed.agentText(sid)
	if r, err := p.prompt(t, sid, "/instructions"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("/instructions: %q, %v", r, err)
	}
	if len(srv.Requests()) != before {
		t.Error("/instructions asked the model")
	}
	if answer := strings.TrimPrefix(ed.agentText(sid), said); strings.TrimSpace(answer) == "" {
		t.Errorf("/instructions said nothing")
	}
}

func TestLocalCommandWithoutTerminal(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo local-output-line"}`}}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	ed := newEditor(t)
	ed.answer = func(sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		return sdk.NewRequestPermissionOutcomeSelected("allow_always")
	}
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, false, false)
	sid := p.newSession(t, workspace(t, nil))
	if r, err := p.prompt(t, sid, "run it"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %q, %v", r, err)
	}
	shown := false
	for _, r := range ed.sessionUpdates(sid) {
		if r.u.Type == agent.ToolCallUpdated && strings.Contains(r.raw, "local-output-line") {
			shown = true
		}
	}
	if !shown {
		t.Error("the local command's output never reached a tool_call_update")
	}
	ed.mu.Lock()
	created := len(ed.created)
	ed.mu.Unlock()
	if created != 0 {
		t.Error("a terminal was created for a client without the terminal capability")
	}
	// allow_always is remembered for the command's prefix (echo
	// local-output-line), not for run_command: the same prefix again does
	// not ask, another command does.
	ed.mu.Lock()
	offered := ed.permissions[0].Options
	ed.mu.Unlock()
	if len(offered) < 2 || offered[1].Name != "Always allow `echo local-output-line …` in this project" {
		t.Errorf("options offered: %+v", offered)
	}
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo local-output-line again"}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"printf again"}`}}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	if r, err := p.prompt(t, sid, "run it again"); err != nil || r != sdk.StopReasonEndTurn {
		t.Fatalf("second prompt: %q, %v", r, err)
	}
	ed.mu.Lock()
	perms := len(ed.permissions)
	ed.mu.Unlock()
	if perms != 2 {
		t.Errorf("%d permission requests, want 2: allow_always remembers echo local-output-line, and printf asks", perms)
	}
}
