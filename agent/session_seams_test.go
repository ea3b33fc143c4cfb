package agent

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/tools"
)

// echoTool is a tool added at run time, as a plugin adds one.
type echoTool struct{}

func (echoTool) Info() tools.Info {
	return tools.Info{Name: "echo_back", Group: tools.GroupRead, Kind: tools.KindOther, Description: "echo",
		Schema: json.RawMessage(`{"type":"object","properties":{}}`)}
}
func (echoTool) Describe(string, json.RawMessage) tools.Preview { return tools.Preview{Title: "echo"} }
func (echoTool) Run(context.Context, *tools.Env, json.RawMessage) (tools.Result, error) {
	return tools.Result{Output: "echoed"}, nil
}

// SessionOpen runs once the session can take messages (a contributor may
// add tools with UpdateTools), SessionClose once it has stopped; a tool
// removed with UpdateTools is no longer offered.
func TestSessionOpenCloseAndUpdateTools(t *testing.T) {
	var mu sync.Mutex
	var opened, closed []string
	f := newFixture(t, func(c *Config) {
		c.Pipeline.SessionOpen = append(c.Pipeline.SessionOpen, func(_ context.Context, s *Session) {
			mu.Lock()
			opened = append(opened, s.ID())
			mu.Unlock()
			s.UpdateTools([]tools.Tool{echoTool{}}, nil)
		})
		c.Pipeline.SessionClose = append(c.Pipeline.SessionClose, func(s *Session) {
			if l, _ := s.State(); l == Running {
				t.Error("SessionClose while a turn runs")
			}
			mu.Lock()
			closed = append(closed, s.ID())
			mu.Unlock()
		})
	})
	s, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: t.TempDir(), Mode: ModeCode, Host: &testHost{}})
	if err != nil {
		t.Fatal(err)
	}
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "echo_back", `{}`)}},
		llmtest.Reply{Text: []string{"ok"}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("go")); err != nil {
		t.Fatal(err)
	}
	s.UpdateTools(nil, []string{"echo_back"})
	if _, err := s.Prompt(context.Background(), prompt("again")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	if !slices.Contains(reqs[0].Tools, "echo_back") || slices.Contains(reqs[2].Tools, "echo_back") {
		t.Errorf("tools offered: %v, then %v", reqs[0].Tools, reqs[2].Tools)
	}
	if r, ok := toolResult(reqs, "c1"); !ok || r.Text != "echoed" {
		t.Errorf("result %+v", r)
	}
	s.Close()
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(opened, []string{s.ID()}) || !slices.Equal(closed, []string{s.ID()}) {
		t.Errorf("opened %v, closed %v", opened, closed)
	}
}
