package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestBadToolCallsGoBackToTheModel sends, through the fake model server,
// calls a model gets wrong: each is answered with an error result the
// model sees in its next request, and the turn goes on to end normally.
func TestBadToolCallsGoBackToTheModel(t *testing.T) {
	tests := []struct {
		name string
		mode Mode
		call llmtest.ToolCall
		want string // in the error result
	}{
		{"arguments not JSON", ModeCode, llmtest.ToolCall{Name: "read_file", Args: `{"path": "a.txt"`}, "not a valid JSON object"},
		{"arguments not an object", ModeCode, llmtest.ToolCall{Name: "read_file", Args: `["a.txt"]`}, "not a valid JSON object"},
		{"unknown tool", ModeCode, llmtest.ToolCall{Name: "launch_rockets", Args: `{}`}, `no tool named "launch_rockets"`},
		{"schema violated", ModeCode, llmtest.ToolCall{Name: "read_file", Args: `{"path": 42}`}, "read_file"},
		{"tool not offered in the mode", ModeAsk, llmtest.ToolCall{Name: "write_file", Args: `{"path":"b.txt","content":"x"}`}, "not available in ask mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			s, _, _ := f.session(tt.mode, map[string]string{"a.txt": "alpha"})
			f.srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{tt.call}}, llmtest.Reply{Text: []string{"sorry"}})
			reason, err := s.Prompt(context.Background(), prompt("go"))
			if err != nil || reason != StopEndTurn {
				t.Fatalf("prompt = %q, %v; want the turn to go on and end", reason, err)
			}
			reqs := f.srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want the error fed back in a second", len(reqs))
			}
			msgs := reqs[1].Messages
			var res *llm.Part
			for i, p := range msgs[len(msgs)-1].Content {
				if p.Type == llm.PartToolResult {
					res = &msgs[len(msgs)-1].Content[i]
				}
			}
			if res == nil || !res.IsError || !strings.Contains(res.Text, tt.want) {
				t.Fatalf("result = %+v, want an error mentioning %q", res, tt.want)
			}
		})
	}
}
