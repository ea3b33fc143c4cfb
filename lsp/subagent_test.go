package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// defsFixture holds mode and agent files in tandem's and Claude Code's
// formats (see agent/custom/testdata/defs).
const defsFixture = "../agent/custom/testdata/defs"

// defsFixture starts `tandem lsp` on a root holding the fixture's project
// files and opens a session in mode, with the fixture's user folders as
// $TANDEM_HOME and $HOME.
func newDefsFixture(t *testing.T, mode string, files map[string]string) (*fixture, []string) {
	t.Helper()
	model := llmtest.NewServer(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, userHome := t.TempDir(), t.TempDir()
	for src, dst := range map[string]string{"project": root, "tandemhome": home, "userhome": userHome} {
		if err := os.CopyFS(dst, os.DirFS(filepath.Join(defsFixture, src))); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := startClient(t, append(fakeModelEnvHome(t, model, home), "HOME="+userHome))
	c.initialize(root, nil)
	var res struct {
		SessionID string `json:"sessionId"`
		Modes     struct {
			CurrentModeID  string `json:"currentModeId"`
			AvailableModes []struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"availableModes"`
		} `json:"modes"`
	}
	c.mustCall("tandem/newSession", map[string]any{"mode": mode}, &res)
	if res.Modes.CurrentModeID != mode {
		t.Fatalf("session mode %q, want %q", res.Modes.CurrentModeID, mode)
	}
	var ids []string
	for _, m := range res.Modes.AvailableModes {
		ids = append(ids, m.ID+"="+m.Name)
	}
	return &fixture{t: t, c: c, model: model, root: root, session: res.SessionID}, ids
}

// TestCustomModesOverLSP: a custom mode can be chosen at tandem/newSession
// and restricts the tools offered; tandem/setMode takes the user's
// replacement of code, whose role then reaches the model.
func TestCustomModesOverLSP(t *testing.T) {
	t.Parallel()
	f, modes := newDefsFixture(t, "review", nil)
	if got := strings.Join(modes, " "); got != "ask=Ask code=My code auto-edit=Auto-edit full-auto=Full auto docs=Docs review=Review" {
		t.Errorf("modes = %s", got)
	}
	f.model.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"ok"}} })
	if stop, err := f.prompt("look"); err != nil || stop != "end_turn" {
		t.Fatalf("prompt = %q, %v", stop, err)
	}
	f.c.mustCall("tandem/setMode", map[string]any{"sessionId": f.session, "modeId": "code"}, nil)
	if _, err := f.prompt("now code"); err != nil {
		t.Fatal(err)
	}
	reqs := f.model.Requests()
	if slices.Contains(reqs[0].Tools, "write_file") || !slices.Contains(reqs[0].Tools, "read_file") {
		t.Errorf("review mode tools = %v", reqs[0].Tools)
	}
	if !slices.Contains(reqs[1].Tools, "write_file") || !strings.Contains(reqs[1].LastUserText(), "Prefer small commits") {
		t.Errorf("code (replaced) request: tools %v, last message %q", reqs[1].Tools, reqs[1].LastUserText())
	}
	if _, err := f.c.call("tandem/setMode", map[string]any{"sessionId": f.session, "modeId": "nope"}); err == nil || !strings.Contains(err.Message, "docs") {
		t.Errorf("unknown mode error = %v", err)
	}
}

// taskUpdates returns the tool-call updates of a session, as sent.
func taskUpdates(t *testing.T, msgs []rpcMsg) []map[string]any {
	var out []map[string]any
	for _, u := range sessionUpdates(t, msgs) {
		if k := u["sessionUpdate"]; k == "tool_call" || k == "tool_call_update" {
			out = append(out, u)
		}
	}
	return out
}

// TestSubagentOverLSP: the child's read comes as its own tandem/update,
// nested under the task call in _meta, its report is the call's result, and
// tandem/cancel stops a child waiting on the model.
func TestSubagentOverLSP(t *testing.T) {
	t.Parallel()
	f, _ := newDefsFixture(t, "code", map[string]string{"a.txt": "alpha beta\n"})
	hang := make(chan struct{}, 1)
	f.model.Handle(func(r *llmtest.Request) llmtest.Reply {
		switch {
		case strings.Contains(r.System, "FINDER-PROMPT-MARKER") && strings.Contains(r.LastUserText(), "JOB-HANG"):
			select {
			case hang <- struct{}{}:
			default:
			}
			return llmtest.Reply{Text: []string{"searching"}, Hang: true}
		case strings.Contains(r.System, "FINDER-PROMPT-MARKER") && len(r.Messages) == 1:
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "read_file", Args: `{"path":"a.txt"}`}}}
		case strings.Contains(r.System, "FINDER-PROMPT-MARKER"):
			return llmtest.Reply{Text: []string{"REPORT: " + r.LastUserText()}}
		case strings.Contains(r.LastUserText(), "REPORT"):
			return llmtest.Reply{Text: []string{"done"}}
		}
		job := "find"
		if strings.Contains(r.LastUserText(), "JOB-HANG") {
			job = "JOB-HANG"
		}
		args, _ := json.Marshal(map[string]string{"description": "d", "prompt": job, "agent": "finder"})
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "task-" + job, Name: "task", Args: string(args)}}}
	})
	if stop, err := f.prompt("find"); err != nil || stop != "end_turn" {
		t.Fatalf("prompt = %q, %v", stop, err)
	}
	var nested, final string
	for _, u := range taskUpdates(t, f.c.messages()) {
		content, _ := json.Marshal(u["content"])
		if u["toolCallId"] != "task-find" {
			// A child's call: its own update, nested in _meta as ACP's.
			meta, _ := json.Marshal(u["_meta"])
			if !strings.Contains(string(meta), `"parentToolUseId":"task-find"`) || !strings.Contains(string(meta), `"parentToolCallId":"task-find"`) {
				t.Errorf("a child's update is not nested under the task: %v", u)
			}
			if u["title"] == "Read a.txt" {
				nested = string(meta)
			}
			continue
		}
		if u["status"] == "completed" {
			final = string(content)
		}
	}
	if nested == "" || !strings.Contains(final, "alpha beta") {
		t.Errorf("nested read %q, final %q", nested, final)
	}

	seen := len(f.c.messages())
	_, ch := f.c.start("tandem/prompt", map[string]any{"sessionId": f.session,
		"prompt": []map[string]string{{"type": "text", "text": "JOB-HANG"}}})
	select {
	case <-hang:
	case <-time.After(15 * time.Second):
		t.Fatal("the child never reached the model")
	}
	f.c.notify("tandem/cancel", map[string]any{"sessionId": f.session})
	res, rerr := f.c.await("tandem/prompt", ch)
	if rerr != nil || !strings.Contains(string(res), `"cancelled"`) {
		t.Fatalf("cancelled prompt answered %s %v", res, rerr)
	}
	ups := taskUpdates(t, f.c.messages()[seen:])
	if len(ups) == 0 || ups[len(ups)-1]["status"] != "failed" {
		t.Errorf("the task call did not end failed: %v", ups)
	}
}
