package agent

import (
	"slices"

	"github.com/tandemhq/tandem/agent/llm"
)

// Interrupted is the result a loaded session gives a tool call that has
// none: tandem stopped (a crash, kill -9, a full disk) before it finished.
// A call that was waiting for the user's permission gets it too: an
// unanswered request counts as rejected, so the call never ran.
const Interrupted = "interrupted: tandem stopped before this tool finished"

// noReply closes a user message the model never answered.
const noReply = "(no reply: tandem stopped before the model answered)"

// repairHistory makes a loaded history one a provider accepts whatever
// instant the log was cut at: roles alternate, every tool_use is answered
// by a tool_result in the next message, no result answers a call that is
// not there, and the history ends with the model's turn, so the next
// prompt follows a reply. It reports how many results it had to invent.
func repairHistory(msgs []llm.Message) ([]llm.Message, int) {
	var out []llm.Message
	for _, m := range msgs {
		if len(m.Content) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == m.Role {
			// Parts of one role split by a lost record belong together.
			out[n-1].Content = append(slices.Clip(out[n-1].Content), m.Content...)
			continue
		}
		out = append(out, m)
	}
	if len(out) > 0 && out[0].Role != llm.RoleUser {
		out = slices.Insert(out, 0, llm.Text(llm.RoleUser, "(earlier conversation lost)"))
	}
	invented := 0
	for i := 0; i < len(out); i++ {
		if out[i].Role != llm.RoleUser {
			continue
		}
		var calls []llm.Part
		if i > 0 {
			for _, p := range out[i-1].Content {
				if p.Type == llm.PartToolUse {
					calls = append(calls, p)
				}
			}
		}
		var n int
		out[i].Content, n = answerCalls(calls, out[i].Content)
		invented += n
	}
	if n := len(out); n > 0 && out[n-1].Role == llm.RoleAssistant {
		var calls []llm.Part
		for _, p := range out[n-1].Content {
			if p.Type == llm.PartToolUse {
				calls = append(calls, p)
			}
		}
		if len(calls) > 0 {
			content, k := answerCalls(calls, nil)
			out = append(out, llm.Message{Role: llm.RoleUser, Content: content})
			invented += k
		}
	}
	if n := len(out); n > 0 && out[n-1].Role == llm.RoleUser {
		out = append(out, llm.Text(llm.RoleAssistant, noReply))
	}
	return out, invented
}

// answerCalls returns a user message's content with one result per call,
// in call order and ahead of its other parts (providers want results
// first); results answering no call are dropped. It reports how many
// results it invented.
func answerCalls(calls, content []llm.Part) ([]llm.Part, int) {
	have := map[string]llm.Part{}
	var rest []llm.Part
	for _, p := range content {
		if p.Type == llm.PartToolResult {
			have[p.ToolCallID] = p
			continue
		}
		rest = append(rest, p)
	}
	out := make([]llm.Part, 0, len(calls)+len(rest))
	invented := 0
	for _, c := range calls {
		r, ok := have[c.ToolCallID]
		if !ok {
			r = llm.Part{Type: llm.PartToolResult, ToolCallID: c.ToolCallID, ToolName: c.ToolName, Text: Interrupted, IsError: true}
			invented++
		}
		out = append(out, r)
	}
	out = append(out, rest...)
	if len(out) == 0 {
		out = append(out, llm.Part{Type: llm.PartText, Text: "(interrupted)"})
	}
	return out, invented
}
