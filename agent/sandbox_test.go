package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// unconfinedHost runs commands like testHost but says they are not
// sandboxed, as the local host does where Landlock is missing.
type unconfinedHost struct{ *testHost }

func (unconfinedHost) CommandConfinement() command.Confinement {
	return command.Confinement{Known: true, Why: "the kernel has no Landlock", Notice: true}
}

func TestFullAutoAsksWithoutASandbox(t *testing.T) {
	f := newFixture(t)
	h := &testHost{}
	s, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: t.TempDir(), Mode: ModeFullAuto, Host: unconfinedHost{h}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "run_command", `{"command":"echo hi"}`)}},
		llmtest.Reply{Text: []string{"done"}},
		llmtest.Reply{Text: []string{"again"}},
	)
	for range 2 {
		if _, err := s.Prompt(context.Background(), prompt("run")); err != nil {
			t.Fatal(err)
		}
	}
	if h.askCount() != 1 {
		t.Fatalf("full-auto without a sandbox asked %d times for one command, want 1", h.askCount())
	}
	if !strings.Contains(h.asks[0].ToolCall.Title, "full-auto asks: the kernel has no Landlock") {
		t.Errorf("the prompt does not say why full-auto asks: %q", h.asks[0].ToolCall.Title)
	}
	if n := strings.Count(h.text(), "Commands are not sandboxed: the kernel has no Landlock"); n != 1 {
		t.Errorf("the notice came %d times in two turns, want once: %q", n, h.text())
	}
}

// A command the model asks to run outside the sandbox asks in full-auto,
// offers no "always", and runs only when approved.
func TestUnsandboxedRunAsksEveryTime(t *testing.T) {
	f := newFixture(t)
	s, h, _ := f.session(ModeFullAuto, nil)
	h.answer = func(req PermissionRequest) (Decision, error) {
		for _, o := range req.Options {
			if o.Kind == AllowAlways || o.Kind == RejectAlways {
				t.Errorf("an unsandboxed run offered %q", o.Kind)
			}
		}
		return Decision{Kind: AllowOnce}, nil
	}
	args := `{"command":"echo outside","unsandboxed":true}`
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "run_command", `{"command":"echo inside"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c2", "run_command", args)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c3", "run_command", args)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("run")); err != nil {
		t.Fatal(err)
	}
	if h.askCount() != 2 {
		t.Fatalf("asks = %d, want 2 (each unsandboxed run, not the sandboxed one)", h.askCount())
	}
	if !strings.Contains(h.asks[0].ToolCall.Title, "outside the sandbox") {
		t.Errorf("the prompt does not say it runs outside the sandbox: %q", h.asks[0].ToolCall.Title)
	}
	if r, _ := toolResult(f.srv.Requests(), "c3"); !strings.Contains(r.Text, "outside") {
		t.Errorf("approved run: %+v", r)
	}
}
