package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/settings"
)

// optionNames lists the names of a request's options, in order.
func optionNames(req PermissionRequest) []string {
	var names []string
	for _, o := range req.Options {
		names = append(names, o.Name)
	}
	return names
}

// toolText is what the user was shown for a tool call: the text of its
// last update carrying content.
func toolText(h *testHost, id string) string {
	var text string
	for _, u := range h.snapshot() {
		if u.Tool != nil && u.Tool.ID == id {
			for _, c := range u.Tool.Content {
				if c.Content != nil {
					text = c.Content.Text
				}
			}
		}
	}
	return text
}

// "Always allow" on `go test ./...` remembers `go test`, nothing more.
func TestAlwaysAllowIsScopedToTheCommand(t *testing.T) {
	f := newFixture(t)
	s, h, dir := f.session(ModeCode, map[string]string{"x/keep.txt": "keep"})
	h.answer = func(req PermissionRequest) (Decision, error) {
		if strings.Contains(req.ToolCall.Title, "go test ./...`") {
			return Decision{Kind: AllowAlways}, nil
		}
		return Decision{Kind: RejectOnce}, nil
	}
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "run_command", `{"command":"go test ./..."}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c2", "run_command", `{"command":"go test -run X ./..."}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c3", "run_command", `{"command":"go vet ./..."}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c4", "run_command", `{"command":"go test ./... && rm -rf x"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("test")); err != nil {
		t.Fatal(err)
	}
	if h.askCount() != 3 {
		t.Fatalf("asks = %d, want 3 (go test ./..., go vet, the compound)", h.askCount())
	}
	for i, want := range []string{"go test ./...", "go vet ./...", "go test ./... && rm -rf x"} {
		if got := h.asks[i].ToolCall.Title; !strings.Contains(got, want) {
			t.Errorf("ask %d is %q, want %q", i, got, want)
		}
	}
	if got := strings.Join(optionNames(h.asks[0]), " | "); got != "Allow | Always allow `go test …` in this project | Reject | Always reject `go test …` in this project" {
		t.Errorf("options for go test: %s", got)
	}
	// The compound's go test part is granted; only rm is new, and a
	// rejection of the whole line names no single rule.
	if got := strings.Join(optionNames(h.asks[2]), " | "); got != "Allow | Always allow `rm …` in this project | Reject" {
		t.Errorf("options for the compound: %s", got)
	}
	reqs := f.srv.Requests()
	if r, ok := toolResult(reqs, "c2"); !ok || strings.Contains(r.Text, "rejected") {
		t.Errorf("go test -run X was not run: %+v", r)
	}
	for _, id := range []string{"c3", "c4"} {
		if r, _ := toolResult(reqs, id); !r.IsError || !strings.Contains(r.Text, "The user rejected") {
			t.Errorf("%s: the model was told %q", id, r.Text)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x", "keep.txt")); err != nil {
		t.Errorf("rm -rf x ran: %v", err)
	}
}

// "Always reject" is scoped the same way, and its refusal says why.
func TestAlwaysRejectIsScoped(t *testing.T) {
	f := newFixture(t)
	s, h, dir := f.session(ModeCode, map[string]string{"a.txt": "a", "b.txt": "b"})
	h.answer = func(req PermissionRequest) (Decision, error) {
		if strings.Contains(req.ToolCall.Title, "rm a.txt") {
			return Decision{Kind: RejectAlways}, nil
		}
		return Decision{Kind: AllowOnce}, nil
	}
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("r1", "run_command", `{"command":"rm a.txt"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("r2", "run_command", `{"command":"rm -f b.txt"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("r3", "run_command", `{"command":"echo ok"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("clean")); err != nil {
		t.Fatal(err)
	}
	if h.askCount() != 2 {
		t.Fatalf("asks = %d, want 2 (rm a.txt, echo)", h.askCount())
	}
	r, _ := toolResult(f.srv.Requests(), "r2")
	if !r.IsError || !strings.Contains(r.Text, "denies `rm …`") || !strings.Contains(r.Text, "run_command(rm:*)") {
		t.Errorf("the model was told %q", r.Text)
	}
	if shown := toolText(h, "r2"); shown != r.Text {
		t.Errorf("the user was shown %q, the model %q", shown, r.Text)
	}
	for _, name := range []string{"a.txt", "b.txt"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed", name)
		}
	}
}

// cannotAskHost is a front door whose editor cannot show prompts.
func cannotAskHost(PermissionRequest) (Decision, error) { return Decision{}, ErrCannotAsk }

// With a host that cannot ask, whatever would have asked is refused with
// a reason the model and the user read; what the mode approves goes ahead.
func TestHostThatCannotAsk(t *testing.T) {
	for _, tc := range []struct {
		mode                      Mode
		wantEdit, wantCommand     bool
		editReason, commandReason string
	}{
		{ModeCode, false, false, "in code mode edits need the user's approval", "in code mode commands need"},
		{ModeAutoEdit, true, false, "", "switch to full-auto mode"},
		{ModeFullAuto, true, true, "", ""},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			f := newFixture(t)
			s, h, dir := f.session(tc.mode, map[string]string{"AGENTS.md": "be kind\n"})
			h.answer = cannotAskHost
			f.srv.Enqueue(
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("e1", "write_file", `{"path":"src/a.txt","content":"new"}`)}},
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("e2", "edit_file", `{"path":"AGENTS.md","old_string":"kind","new_string":"mean"}`)}},
				llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "run_command", `{"command":"touch ran.txt"}`)}},
				llmtest.Reply{Text: []string{"done"}},
			)
			if _, err := s.Prompt(context.Background(), prompt("go")); err != nil {
				t.Fatal(err)
			}
			reqs := f.srv.Requests()
			check := func(id string, wantDone bool, file, reason string) {
				t.Helper()
				_, err := os.Stat(filepath.Join(dir, file))
				if done := err == nil; done != wantDone {
					t.Errorf("%s: %s exists = %v, want %v", id, file, done, wantDone)
				}
				r, _ := toolResult(reqs, id)
				if wantDone {
					return
				}
				if !r.IsError || !strings.Contains(r.Text, "this editor cannot show permission prompts") || !strings.Contains(r.Text, reason) {
					t.Errorf("%s: the model was told %q, want the no-prompt refusal with %q", id, r.Text, reason)
				}
				if shown := toolText(h, id); shown != r.Text {
					t.Errorf("%s: the user was shown %q", id, shown)
				}
			}
			check("e1", tc.wantEdit, "src/a.txt", tc.editReason)
			check("c1", tc.wantCommand, "ran.txt", tc.commandReason)
			if data, _ := os.ReadFile(filepath.Join(dir, "AGENTS.md")); string(data) != "be kind\n" {
				t.Errorf("AGENTS.md was edited: %q", data)
			}
			if r, _ := toolResult(reqs, "e2"); !strings.Contains(r.Text, "AGENTS.md is a protected file") {
				t.Errorf("e2: the model was told %q", r.Text)
			}
		})
	}
}

// A repository's MCP servers need the user's consent; a host that cannot
// ask leaves them stopped and the user is told why.
func TestProjectMCPServersWithoutPrompts(t *testing.T) {
	f := newFixture(t)
	dir := projectMCPWorkspace(t, "proj")
	h := &testHost{answer: cannotAskHost}
	s := promptIn(t, f, dir, h)
	if h.askCount() != 1 || hasTool(s, "mcp__proj__echo") || !strings.Contains(h.text(), "cannot show the permission prompt") {
		t.Errorf("asks %d, tool present %v, told %q", h.askCount(), hasTool(s, "mcp__proj__echo"), h.text())
	}
}

// projectMCPWorkspace is a workspace whose .tandem/mcp.json names one
// server, the MCP "everything" server.
func projectMCPWorkspace(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	ev := everythingServer(t, name)
	cfg, err := json.Marshal(map[string]any{"servers": map[string]any{name: map[string]any{"command": ev.Command, "args": ev.Args}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".tandem"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".tandem", "mcp.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// An "Always allow" saved while a deny rule for the same call came into
// force (another session's "Always reject", answered while this question
// was open) lets this call through, which it answered, but deny comes
// first for the later ones, and the user is told so.
func TestAlwaysAllowUnderADenyIsTold(t *testing.T) {
	f := newFixture(t)
	s, h, dir := f.session(ModeCode, nil)
	h.answer = func(req PermissionRequest) (Decision, error) {
		if err := settings.SaveLocal(dir, policy.Deny, "run_command(echo ok:*)"); err != nil {
			return Decision{}, err
		}
		return Decision{Kind: AllowAlways}, nil
	}
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "run_command", `{"command":"echo ok"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c2", "run_command", `{"command":"echo ok again"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("echo")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	if r, _ := toolResult(reqs, "c1"); r.IsError {
		t.Errorf("the call the user allowed was refused: %q", r.Text)
	}
	if r, _ := toolResult(reqs, "c2"); !r.IsError || !strings.Contains(r.Text, "denies") {
		t.Errorf("the later call gave %q, want the deny's refusal", r.Text)
	}
	if h.askCount() != 1 {
		t.Errorf("asks = %d, want 1", h.askCount())
	}
	if said := h.text(); !strings.Contains(said, "was saved, but the rule run_command(echo ok:*) (.tandem/settings.local.json) denies it, and deny comes first") {
		t.Errorf("the user was not told the deny wins: %q", said)
	}
}

// The prompt before a repository's MCP servers start offers no "always":
// nothing remembers that answer, so a label promising it would lie.
func TestProjectMCPOffersNoAlways(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	cfg := `{"servers": {"proj": {"command": "/nonexistent/mcp-server"}}}`
	if err := os.MkdirAll(filepath.Join(dir, ".tandem"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".tandem", "mcp.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	h := &testHost{answer: func(PermissionRequest) (Decision, error) { return Decision{Kind: RejectOnce}, nil }}
	promptIn(t, f, dir, h)
	if h.askCount() != 1 {
		t.Fatalf("asks = %d, want 1", h.askCount())
	}
	if got := strings.Join(optionNames(h.asks[0]), " | "); got != "Start them in this session | Do not start them" {
		t.Errorf("options: %s", got)
	}
}

// promptIn opens a session in dir on h, closed at the test's end, and
// runs one prompt the model answers with text.
func promptIn(t *testing.T, f *fixture, dir string, h *testHost) *Session {
	t.Helper()
	s, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: dir, Host: h})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	if _, err := s.Prompt(context.Background(), prompt("hi")); err != nil {
		t.Fatal(err)
	}
	return s
}
