package agent

import (
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
)

func TestRepairHistory(t *testing.T) {
	use := func(id string) llm.Part {
		return llm.Part{Type: llm.PartToolUse, ToolCallID: id, ToolName: "read_file"}
	}
	res := func(id string) llm.Part { return llm.Part{Type: llm.PartToolResult, ToolCallID: id, Text: "ok"} }
	user := func(ps ...llm.Part) llm.Message { return llm.Message{Role: llm.RoleUser, Content: ps} }
	asst := func(ps ...llm.Part) llm.Message { return llm.Message{Role: llm.RoleAssistant, Content: ps} }
	text := func(s string) llm.Part { return llm.Part{Type: llm.PartText, Text: s} }

	tests := []struct {
		name     string
		in       []llm.Message
		invented int
	}{
		{"killed while a tool ran", []llm.Message{user(text("go")), asst(use("a"), use("b"))}, 2},
		{"one of two results saved", []llm.Message{user(text("go")), asst(use("a"), use("b")), user(res("a"))}, 1},
		{"killed while streaming", []llm.Message{user(text("go"))}, 0},
		{"next prompt after a lost result", []llm.Message{user(text("go")), asst(use("a")), user(text("again")), asst(text("ok"))}, 1},
		{"orphan result dropped", []llm.Message{user(text("go")), asst(text("hi")), user(res("zz"), text("more"))}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, n := repairHistory(tt.in)
			if n != tt.invented {
				t.Errorf("invented %d results, want %d", n, tt.invented)
			}
			for i, m := range out {
				if i > 0 && out[i-1].Role == m.Role {
					t.Errorf("messages %d and %d share role %s", i-1, i, m.Role)
				}
				var ids []string
				for _, p := range m.Content {
					if p.Type == llm.PartToolUse {
						ids = append(ids, p.ToolCallID)
					}
				}
				for _, id := range ids {
					if i+1 >= len(out) || !hasResult(out[i+1], id) {
						t.Errorf("call %s unanswered in %+v", id, out)
					}
				}
				if m.Role == llm.RoleUser {
					for _, p := range m.Content {
						if p.Type == llm.PartToolResult && (i == 0 || !hasUse(out[i-1], p.ToolCallID)) {
							t.Errorf("result %s answers no call", p.ToolCallID)
						}
					}
				}
			}
			if last := out[len(out)-1]; last.Role != llm.RoleAssistant {
				t.Errorf("history ends with %s, want the model's turn", last.Role)
			}
		})
	}
}

func hasResult(m llm.Message, id string) bool {
	for _, p := range m.Content {
		if p.Type == llm.PartToolResult && p.ToolCallID == id {
			return true
		}
	}
	return false
}

func hasUse(m llm.Message, id string) bool {
	for _, p := range m.Content {
		if p.Type == llm.PartToolUse && p.ToolCallID == id {
			return true
		}
	}
	return false
}
