package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// When settings.local.json cannot be written (here .tandem is a file),
// "Always allow" still holds for the session, and the user is told it was
// not saved; /permissions lists the rule as the session's.
func TestAlwaysAllowUnsavedHoldsForTheSession(t *testing.T) {
	f := newFixture(t)
	s, h, dir := f.session(ModeCode, map[string]string{".tandem": "not a directory"})
	h.answer = func(req PermissionRequest) (Decision, error) { return Decision{Kind: AllowAlways}, nil }
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "run_command", `{"command":"echo -n a"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c2", "run_command", `{"command":"echo -n b"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("echo")); err != nil {
		t.Fatal(err)
	}
	if h.askCount() != 1 {
		t.Errorf("asks = %d, want 1", h.askCount())
	}
	var said strings.Builder
	for _, u := range h.snapshot() {
		if u.Type == AgentMessageChunk && u.Chunk != nil {
			said.WriteString(u.Chunk.Text)
		}
	}
	if !strings.Contains(said.String(), "run_command(echo:*) could not be saved") || !strings.Contains(said.String(), "this session only") {
		t.Errorf("the user was not told the rule was not saved: %q", said.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".tandem")); string(b) != "not a directory" {
		t.Errorf(".tandem changed: %q", b)
	}
	if out := s.describeRules(context.Background()); !strings.Contains(out, "allow:\n  run_command(echo:*) — this session") {
		t.Errorf("/permissions:\n%s", out)
	}
	if msg := s.removeRule(context.Background(), "run_command(echo:*)"); !strings.Contains(msg, "Removed run_command(echo:*) from this session") {
		t.Errorf("remove: %s", msg)
	}
}
