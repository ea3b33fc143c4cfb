package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/tools"
)

// A tool that acts on the world without going through the Host (an MCP or
// plugin tool) finds its call, in progress, in the session log once it is
// let through: the log is written behind the wire, and a crash while such
// a tool runs must replay the call interrupted, as for edits and commands.
func TestToolCallLoggedBeforeItActs(t *testing.T) {
	var f *fixture
	var s *Session
	var inLog string
	remote := tools.New(tools.Spec[struct{}]{Name: "remote", Group: tools.GroupMCP, Kind: tools.KindOther, Doc: "acts elsewhere",
		Run: func(ctx context.Context, env *tools.Env, _ struct{}) (tools.Result, error) {
			if err := env.Ask(ctx, tools.Ask{Title: "remote"}); err != nil {
				return tools.Result{}, err
			}
			_, recs, _, err := f.store.Read(s.ID())
			if err != nil {
				return tools.Result{}, err
			}
			var b strings.Builder
			for _, r := range recs {
				b.Write(r.Data)
			}
			inLog = b.String()
			return tools.Result{Output: "done"}, nil
		}})
	f = newFixture(t, func(c *Config) { c.ExtraTools = []tools.Tool{remote} })
	s, _, _ = f.session(ModeFullAuto, nil)
	f.srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "remote", `{}`)}}, llmtest.Reply{Text: []string{"ok"}})
	if _, err := s.Prompt(context.Background(), prompt("go")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(inLog, `"toolCallId":"c1"`) || !strings.Contains(inLog, `"status":"in_progress"`) {
		t.Errorf("the log when the tool acted: %s", inLog)
	}
}
