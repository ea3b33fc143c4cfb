package openai_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/openai"
)

type call struct{ id, name, args string }

func calls(r *llm.Response) []call {
	var out []call
	for _, p := range r.ToolCalls() {
		out = append(out, call{p.ToolCallID, p.ToolName, string(p.Input)})
	}
	return out
}

// Servers other than OpenAI stream tool calls and reasoning differently;
// all of these must assemble to the same response.
func TestTolerance(t *testing.T) {
	two := []llmtest.ToolCall{{ID: "c1", Name: "read_file", Args: `{"path":"a"}`, Split: 3}, {ID: "c2", Name: "list_files", Args: `{"path":"b"}`, Split: 2}}
	want := []call{{"c1", "read_file", `{"path":"a"}`}, {"c2", "list_files", `{"path":"b"}`}}
	chunk := func(delta, finish string) string {
		return `data: {"choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}],"x_vendor":{"a":1}}` + "\n\n"
	}
	tests := []struct {
		name      string
		reply     llmtest.Reply
		calls     []call
		reasoning string // expected Extra field holding the reasoning
		stop      llm.StopReason
	}{
		{"split deltas with index", llmtest.Reply{ToolCalls: two}, want, "", llm.StopToolUse},
		{"no index", llmtest.Reply{ToolCalls: two, OmitIndex: true}, want, "", llm.StopToolUse},
		{"whole calls", llmtest.Reply{ToolCalls: two, WholeCalls: true}, want, "", llm.StopToolUse},
		{"whole calls without index", llmtest.Reply{ToolCalls: two, WholeCalls: true, OmitIndex: true}, want, "", llm.StopToolUse},
		{"reasoning_content", llmtest.Reply{Reasoning: []string{"a", "b"}, Text: []string{"t"}}, nil, "reasoning_content", llm.StopEndTurn},
		{"reasoning field", llmtest.Reply{Reasoning: []string{"a", "b"}, Text: []string{"t"}, ReasoningField: "reasoning"}, nil, "reasoning", llm.StopEndTurn},
		{"stop with tool calls (Ollama)", llmtest.Reply{ToolCalls: two[:1], Stop: "stop"}, want[:1], "", llm.StopToolUse},
		{"index reused for a new id", llmtest.Reply{Raw: chunk(`{"tool_calls":[{"index":0,"id":"c1","function":{"name":"read_file","arguments":"{\"path\":\"a\"}"}}]}`, "null") +
			chunk(`{"tool_calls":[{"index":0,"id":"c2","function":{"name":"list_files","arguments":"{\"path\":\"b\"}"}}]}`, "null") +
			chunk(`{}`, `"tool_calls"`) + "data: [DONE]\n\n"}, want, "", llm.StopToolUse},
		{"finish and usage in one chunk, no space after data:", llmtest.Reply{Raw: "data:" + `{"choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":3,"completion_tokens":2}}` + "\n\n: keep-alive\n\ndata: [DONE]\n\n"},
			want[:1], "", llm.StopToolUse},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			srv.Enqueue(tt.reply, llmtest.Reply{Text: []string{"next"}})
			p := openai.New(openai.Options{BaseURL: srv.BaseURL(llmtest.OpenAI)})
			req := &llm.Request{Model: "m", Messages: []llm.Message{llm.Text(llm.RoleUser, "q")}}
			var reasoning strings.Builder
			resp, err := p.Stream(context.Background(), req, func(e llm.Event) {
				if e.Type == llm.EventReasoning {
					reasoning.WriteString(e.Text)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := calls(resp); !reflect.DeepEqual(got, tt.calls) {
				t.Errorf("calls = %v, want %v", got, tt.calls)
			}
			if resp.StopReason != tt.stop {
				t.Errorf("stop = %q, want %q", resp.StopReason, tt.stop)
			}
			if tt.reasoning == "" {
				return
			}
			th := resp.Message.Content[0]
			if reasoning.String() != "ab" || th.Type != llm.PartThinking || th.Text != "ab" || string(th.Extra()[tt.reasoning]) != `"ab"` {
				t.Fatalf("reasoning events %q, first part %+v", reasoning.String(), th)
			}
			req.Messages = append(req.Messages, resp.Message, llm.Text(llm.RoleUser, "more"))
			if _, err := p.Stream(context.Background(), req, func(llm.Event) {}); err != nil {
				t.Fatal(err)
			}
			wantWire := `{"role":"assistant","content":"t","` + tt.reasoning + `":"ab"}`
			if body := string(srv.Requests()[1].Body); !strings.Contains(body, wantWire) {
				t.Errorf("replay lacks %s: %s", wantWire, body)
			}
		})
	}
}

func TestWireShape(t *testing.T) {
	img := llm.Image("image/png", "iVBO")
	req := &llm.Request{Model: "m", System: "sys", MaxTokens: 99,
		Tools: []llm.ToolSpec{{Name: "read_file", Description: "Read.", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartText, Text: "see"}, img}},
			{Role: llm.RoleAssistant, Content: []llm.Part{{Type: llm.PartToolUse, ToolCallID: "c1", ToolName: "read_file", Input: json.RawMessage(`{"path":"a"}`)}}},
			{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartToolResult, ToolCallID: "c1", Text: "no such file", IsError: true, PartRare: &llm.PartRare{Images: []llm.Part{img}}}}},
		}}
	tests := []struct {
		name  string
		opts  openai.Options
		want  []string
		avoid []string
	}{
		{"no key", openai.Options{}, []string{
			`{"model":"m","stream":true,"stream_options":{"include_usage":true},"max_tokens":99,"tools":[{"type":"function","function":{"name":"read_file","description":"Read.","parameters":{"type":"object"}}}],"messages":[{"role":"system","content":"sys"},`,
			`{"role":"user","content":[{"type":"text","text":"see"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBO"}}]}`,
			`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a\"}"}}]}`,
			`{"role":"tool","tool_call_id":"c1","content":"Error: no such file"},{"role":"user","content":[{"type":"text","text":"Images returned by tool call c1:"},{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBO"}}]}]}`,
		}, nil},
		{"max_completion_tokens", openai.Options{APIKey: "k", MaxTokensField: "max_completion_tokens"}, []string{`"max_completion_tokens":99`}, []string{`"max_tokens"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
			tt.opts.BaseURL = srv.BaseURL(llmtest.OpenAI)
			if _, err := openai.New(tt.opts).Stream(context.Background(), req, func(llm.Event) {}); err != nil {
				t.Fatal(err)
			}
			r := srv.Requests()[0]
			body := string(r.Body)
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("body lacks %s\nbody: %s", w, body)
				}
			}
			for _, a := range tt.avoid {
				if strings.Contains(body, a) {
					t.Errorf("body has %s", a)
				}
			}
			if auth, ok := r.Header["Authorization"]; ok != (tt.opts.APIKey != "") {
				t.Errorf("Authorization header %q with key %q", auth, tt.opts.APIKey)
			}
		})
	}
}

// With DropReasoning the reasoning is still streamed and kept, but not sent back.
func TestDropReasoning(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Reasoning: []string{"r"}, Text: []string{"t"}}, llmtest.Reply{Text: []string{"x"}})
	p := openai.New(openai.Options{BaseURL: srv.BaseURL(llmtest.OpenAI), DropReasoning: true})
	req := &llm.Request{Model: "m", Messages: []llm.Message{llm.Text(llm.RoleUser, "q")}}
	resp, err := p.Stream(context.Background(), req, func(llm.Event) {})
	if err != nil {
		t.Fatal(err)
	}
	req.Messages = append(req.Messages, resp.Message, llm.Text(llm.RoleUser, "q2"))
	if _, err := p.Stream(context.Background(), req, func(llm.Event) {}); err != nil {
		t.Fatal(err)
	}
	if body := string(srv.Requests()[1].Body); strings.Contains(body, "reasoning_content") || !strings.Contains(body, `{"role":"assistant","content":"t"}`) {
		t.Errorf("body = %s", body)
	}
}

// reasoning_effort goes to models that reason, never to others (servers
// reject fields they do not know), and "off" sends nothing.
func TestReasoningEffort(t *testing.T) {
	for _, c := range []struct {
		model  string
		effort llm.Effort
		want   bool
	}{
		{"gpt-5", llm.EffortHigh, true},
		{"o4-mini", llm.EffortLow, true},
		{"gpt-5", llm.EffortOff, false},
		{"gpt-4.1", llm.EffortHigh, false},
		{"qwen2.5-coder:14b", llm.EffortMedium, false},
	} {
		srv := llmtest.NewServer(t)
		srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
		req := &llm.Request{Model: c.model, Effort: c.effort, Messages: []llm.Message{llm.Text(llm.RoleUser, "hi")}}
		if _, err := openai.New(openai.Options{BaseURL: srv.BaseURL(llmtest.OpenAI)}).Stream(context.Background(), req, func(llm.Event) {}); err != nil {
			t.Fatal(err)
		}
		body := string(srv.Requests()[0].Body)
		if got := strings.Contains(body, `"reasoning_effort":"`+string(c.effort)+`"`); got != c.want || (!c.want && strings.Contains(body, "reasoning_effort")) {
			t.Errorf("%s at %s: body %s", c.model, c.effort, body)
		}
	}
}
