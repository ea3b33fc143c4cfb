package llmtest

import (
	"encoding/json"
	"fmt"
	"iter"

	"github.com/tandemhq/tandem/agent/llm"
)

// PrefixSteps yields the requests a provider's prefix cache must encode
// exactly as a cold encoder would: two conversations growing in turns
// (text with characters JSON escapes, reasoning to replay, tool calls, a
// tool result with an image), a fork, a compacted history, a changed tool
// list, tool schema (in place), model, token limit, effort and system
// prompt, and histories changed in place after they were sent (a text, a
// tool input, a replayed field, an image added). Each request
// is valid for both wire formats. Steps that change a history in place
// do so after the previous request was yielded, so a test must encode
// each request before asking for the next.
func PrefixSteps() iter.Seq2[string, *llm.Request] {
	return func(yield func(string, *llm.Request) bool) {
		tools := []llm.ToolSpec{{Name: "read_file", Description: "Reads <a> & b.", InputSchema: json.RawMessage(`{"type":"object"}`)}}
		req := func(msgs []llm.Message) *llm.Request {
			return &llm.Request{Model: "test-model", System: "be brief", MaxTokens: 1000, Tools: tools, Messages: msgs}
		}
		var a, b []llm.Message
		steps := []func() (string, *llm.Request){func() (string, *llm.Request) { return "empty", req(nil) }}
		for i := range 4 {
			steps = append(steps,
				func() (string, *llm.Request) {
					a = append(a, llm.Text(llm.RoleUser, fmt.Sprintf("question %d <html> & \"quotes\" \u2028", i)))
					return "a user", req(a)
				},
				func() (string, *llm.Request) {
					a = append(a, llm.Message{Role: llm.RoleAssistant, Content: []llm.Part{
						{Type: llm.PartThinking, Text: "plan", PartRare: &llm.PartRare{Signature: "sig", Extra: map[string]json.RawMessage{"reasoning_content": json.RawMessage(`"plan"`)}}},
						{Type: llm.PartText, Text: "let me look"},
						{Type: llm.PartToolUse, ToolCallID: fmt.Sprint("t", i), ToolName: "read_file", Input: json.RawMessage(`{"path":"a.go"}`)}}})
					return "a assistant", req(a)
				},
				func() (string, *llm.Request) {
					res := llm.Part{Type: llm.PartToolResult, ToolCallID: fmt.Sprint("t", i), Text: "package a", IsError: i == 3}
					if i == 1 {
						res.Rare().Images = []llm.Part{llm.Image("image/png", "iVBORw0KGgo=")}
					}
					a = append(a, llm.Message{Role: llm.RoleUser, Content: []llm.Part{res}})
					return "a result", req(a)
				},
				func() (string, *llm.Request) {
					b = append(b, llm.Text(llm.RoleUser, fmt.Sprint("other ", i)), llm.Text(llm.RoleAssistant, "ok"))
					return "b", req(b)
				})
		}
		steps = append(steps,
			func() (string, *llm.Request) {
				return "fork", req(append(append([]llm.Message(nil), a[:4]...), llm.Text(llm.RoleUser, "forked")))
			},
			func() (string, *llm.Request) { return "a again", req(a) },
			func() (string, *llm.Request) {
				r := req(a)
				r.Tools = append(append([]llm.ToolSpec(nil), tools...), llm.ToolSpec{Name: "list_files", InputSchema: json.RawMessage(`{"type":"object"}`)})
				return "tools changed", r
			},
			func() (string, *llm.Request) {
				tools[0].InputSchema[14] = 'T' // {"type":"objecT"}
				return "tool schema rewritten in place", req(a)
			},
			func() (string, *llm.Request) { r := req(a); r.Model = "other-model"; return "model changed", r },
			func() (string, *llm.Request) { r := req(a); r.MaxTokens = 2000; return "max tokens changed", r },
			func() (string, *llm.Request) { r := req(a); r.Effort = llm.EffortHigh; return "effort changed", r },
			func() (string, *llm.Request) { r := req(a); r.System = "plan first"; return "system changed", r },
			func() (string, *llm.Request) {
				compacted := append([]llm.Message{llm.Text(llm.RoleUser, "Summary of the conversation so far.")}, a[len(a)-3:]...)
				return "compacted", req(compacted)
			},
			func() (string, *llm.Request) {
				a[2].Content[0].Text = "[output dropped]"
				return "result rewritten in place", req(a)
			},
			func() (string, *llm.Request) {
				a[4].Content[2].Input[9] = 'b' // {"path":"b.go"}
				return "tool input rewritten in place", req(a)
			},
			func() (string, *llm.Request) {
				a[7].Content[0].Extra()["reasoning_content"] = json.RawMessage(`"another plan"`)
				return "replayed field rewritten in place", req(a)
			},
			func() (string, *llm.Request) {
				a[8].Content[0].Rare().Images = []llm.Part{llm.Image("image/png", "R0lGODlh")}
				return "image added to a result in place", req(a)
			})
		for _, step := range steps {
			if !yield(step()) {
				return
			}
		}
	}
}
