package anthropic_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

func stream(t *testing.T, p llm.Provider, req *llm.Request) *llm.Response {
	t.Helper()
	resp, err := p.Stream(context.Background(), req, func(llm.Event) {})
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	return resp
}

// Thinking and redacted thinking must come back byte for byte, in order,
// or the API rejects the next request of a tool loop.
func TestThinkingReplayedVerbatim(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{RedactedThinking: "EqQBCgIYAh==", Reasoning: []string{"Let me ", "check."}, Signature: "c2lnbmF0dXJl",
			ToolCalls: []llmtest.ToolCall{{ID: "toolu_1", Name: "read_file", Args: `{"path":"go.mod"}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	p := anthropic.New(anthropic.Options{BaseURL: srv.URL, ThinkingBudget: 2048})
	req := &llm.Request{Model: "m", Messages: []llm.Message{llm.Text(llm.RoleUser, "hi")}}
	resp := stream(t, p, req)
	want := []llm.Part{
		{Type: llm.PartThinking, PartRare: &llm.PartRare{Redacted: "EqQBCgIYAh==", Origin: llm.OriginAnthropic}},
		{Type: llm.PartThinking, Text: "Let me check.", PartRare: &llm.PartRare{Signature: "c2lnbmF0dXJl", Origin: llm.OriginAnthropic}},
		{Type: llm.PartToolUse, ToolCallID: "toolu_1", ToolName: "read_file", Input: json.RawMessage(`{"path":"go.mod"}`)},
	}
	if !reflect.DeepEqual(resp.Message.Content, want) {
		t.Fatalf("assembled %+v\nwant      %+v", resp.Message.Content, want)
	}
	req.Messages = append(req.Messages, resp.Message, llm.Message{Role: llm.RoleUser,
		Content: []llm.Part{{Type: llm.PartToolResult, ToolCallID: "toolu_1", Text: "module x"}}})
	stream(t, p, req)
	body := string(srv.Requests()[1].Body)
	wantWire := `{"role":"assistant","content":[{"type":"redacted_thinking","data":"EqQBCgIYAh=="},{"type":"thinking","thinking":"Let me check.","signature":"c2lnbmF0dXJl"},{"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"go.mod"}}]}`
	if !strings.Contains(body, wantWire) {
		t.Errorf("second request lacks the verbatim assistant turn\nbody: %s\nwant: %s", body, wantWire)
	}
	if !strings.Contains(body, `"thinking":{"type":"enabled","budget_tokens":2048}`) {
		t.Errorf("thinking budget not sent: %s", body)
	}
}

// Breakpoints: system, the last tool, and the last cacheable block of the
// last message — and nowhere else.
func TestCacheControlBreakpoints(t *testing.T) {
	tests := []struct {
		name string
		last llm.Message
		want string // the block that carries the marker in the last message
	}{
		{"text", llm.Text(llm.RoleUser, "go on"), `{"type":"text","text":"go on","cache_control":{"type":"ephemeral"}}`},
		{"tool results", llm.Message{Role: llm.RoleUser, Content: []llm.Part{
			{Type: llm.PartToolResult, ToolCallID: "a", Text: "one"},
			{Type: llm.PartToolResult, ToolCallID: "b", Text: "two"},
		}}, `{"type":"tool_result","tool_use_id":"b","content":[{"type":"text","text":"two"}],"cache_control":{"type":"ephemeral"}}`},
		{"thinking last is skipped", llm.Message{Role: llm.RoleAssistant, Content: []llm.Part{
			{Type: llm.PartText, Text: "pre"},
			{Type: llm.PartThinking, Text: "t", PartRare: &llm.PartRare{Signature: "s"}},
		}}, `{"type":"text","text":"pre","cache_control":{"type":"ephemeral"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
			p := anthropic.New(anthropic.Options{BaseURL: srv.URL})
			stream(t, p, &llm.Request{Model: "m", System: "sys",
				Tools:    []llm.ToolSpec{{Name: "a", InputSchema: json.RawMessage(`{"type":"object"}`)}, {Name: "b"}},
				Messages: []llm.Message{llm.Text(llm.RoleUser, "first"), llm.Text(llm.RoleAssistant, "reply"), tt.last}})
			body := string(srv.Requests()[0].Body)
			for _, frag := range []string{
				`"system":[{"type":"text","text":"sys","cache_control":{"type":"ephemeral"}}]`,
				`{"name":"a","input_schema":{"type":"object"}},{"name":"b","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral"}}`,
				tt.want,
			} {
				if !strings.Contains(body, frag) {
					t.Errorf("body lacks %s\nbody: %s", frag, body)
				}
			}
			if n := strings.Count(body, "cache_control"); n != 3 {
				t.Errorf("%d cache_control markers, want 3: %s", n, body)
			}
		})
	}
}

// Every part type survives the trip to the wire and back through the fake
// server's decoder.
func TestPartsRoundTrip(t *testing.T) {
	img := llm.Image("image/png", "iVBORw0KGgo=")
	msgs := []llm.Message{
		{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartText, Text: "look <here> & there"}, img}},
		{Role: llm.RoleAssistant, Content: []llm.Part{
			{Type: llm.PartThinking, Text: "hmm", PartRare: &llm.PartRare{Signature: "sig"}},
			{Type: llm.PartText, Text: "running"},
			{Type: llm.PartToolUse, ToolCallID: "t1", ToolName: "run_command", Input: json.RawMessage(`{"command":"ls"}`)},
		}},
		{Role: llm.RoleUser, Content: []llm.Part{
			{Type: llm.PartToolResult, ToolCallID: "t1", Text: "exit 1", IsError: true, PartRare: &llm.PartRare{Images: []llm.Part{img}}},
		}},
	}
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	stream(t, anthropic.New(anthropic.Options{BaseURL: srv.URL}), &llm.Request{Model: "m", Messages: msgs})
	if got := srv.Requests()[0].Messages; !reflect.DeepEqual(got, msgs) {
		t.Errorf("server saw\n%+v\nwant\n%+v", got, msgs)
	}
	if body := string(srv.Requests()[0].Body); !strings.Contains(body, `"text":"look <here> & there"`) {
		t.Errorf("HTML characters were escaped: %s", body)
	}
}

func TestStopSequenceIsEndTurn(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"x"}, Stop: "stop_sequence"})
	resp := stream(t, anthropic.New(anthropic.Options{BaseURL: srv.URL}), &llm.Request{Model: "m", Messages: []llm.Message{llm.Text(llm.RoleUser, "q")}})
	if resp.StopReason != llm.StopEndTurn {
		t.Errorf("stop = %q, want end_turn", resp.StopReason)
	}
	if v := srv.Requests()[0].Header.Get("Anthropic-Version"); v != anthropic.DefaultVersion {
		t.Errorf("anthropic-version = %q", v)
	}
}

func TestBaseURLWithV1(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	stream(t, anthropic.New(anthropic.Options{BaseURL: srv.URL + "/v1/"}), &llm.Request{Model: "m", Messages: []llm.Message{llm.Text(llm.RoleUser, "q")}})
	if p := srv.Requests()[0].Path; p != "/v1/messages" {
		t.Errorf("path = %q", p)
	}
}

// The thought level picks the thinking budget, "off" drops a configured
// one, and max_tokens always stays above the budget.
func TestEffortSetsThinkingBudget(t *testing.T) {
	for _, c := range []struct {
		effort llm.Effort
		want   string
	}{
		{"", `"max_tokens":1000,"stream":true,"thinking":{"type":"enabled","budget_tokens":512}`},
		{llm.EffortOff, `"max_tokens":1000,"stream"`},
		{llm.EffortLow, `"max_tokens":10240,"stream":true,"thinking":{"type":"enabled","budget_tokens":2048}`},
		{llm.EffortHigh, `"max_tokens":32768,"stream":true,"thinking":{"type":"enabled","budget_tokens":24576}`},
	} {
		srv := llmtest.NewServer(t)
		srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
		p := anthropic.New(anthropic.Options{BaseURL: srv.URL, ThinkingBudget: 512})
		stream(t, p, &llm.Request{Model: "claude-sonnet-4-5", MaxTokens: 1000, Effort: c.effort, Messages: []llm.Message{llm.Text(llm.RoleUser, "hi")}})
		body := string(srv.Requests()[0].Body)
		if !strings.Contains(body, c.want) || (c.effort == llm.EffortOff && strings.Contains(body, "thinking")) {
			t.Errorf("effort %q: body %s\nwant %s", c.effort, body, c.want)
		}
	}
}
