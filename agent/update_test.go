package agent

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/tools"
)

// The JSON of an Update is the ACP session/update object: editors and the
// store depend on these exact shapes.
func TestUpdateJSON(t *testing.T) {
	tests := []struct {
		name string
		u    Update
		want string
	}{
		{"agent chunk", Update{Type: AgentMessageChunk, Chunk: &ContentBlock{Type: "text", Text: "hi"}},
			`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}`},
		{"thought", Update{Type: AgentThoughtChunk, Chunk: &ContentBlock{Type: "text", Text: "hm"}},
			`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hm"}}`},
		{"tool call with diff for a new file", Update{Type: ToolCallStarted, Tool: &ToolCall{ID: "c1", Title: "Write a.go", Kind: tools.KindEdit, Status: ToolPending,
			Content: []ToolContent{DiffContent(edits.FileEdit{Path: "/w/a.go", New: "x", Create: true})}, Locations: []tools.Location{{Path: "/w/a.go", Line: 3}}, RawInput: json.RawMessage(`{"path":"a.go"}`)}},
			`{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Write a.go","kind":"edit","status":"pending","content":[{"type":"diff","path":"/w/a.go","newText":"x"}],"locations":[{"path":"/w/a.go","line":3}],"rawInput":{"path":"a.go"}}`},
		{"tool call update: terminal", Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: "c2", Status: ToolCompleted, Content: []ToolContent{{Type: "terminal", TerminalID: "t1"}}}},
			`{"sessionUpdate":"tool_call_update","toolCallId":"c2","status":"completed","content":[{"type":"terminal","terminalId":"t1"}]}`},
		{"tool call update: edit of an existing file", Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: "c3", Content: []ToolContent{DiffContent(edits.FileEdit{Path: "/w/b", Old: "", New: "y"})}}},
			`{"sessionUpdate":"tool_call_update","toolCallId":"c3","content":[{"type":"diff","path":"/w/b","oldText":"","newText":"y"}]}`},
		{"tool result text escaped as before", Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: "c4", Status: ToolCompleted, Content: []ToolContent{TextContent("1\tif a < b && c > d {\n\u2028\"q\"")}, RawOutput: json.RawMessage(`{"ok":true}`)}},
			`{"sessionUpdate":"tool_call_update","toolCallId":"c4","status":"completed","content":[{"type":"content","content":{"type":"text","text":"1\tif a \u003c b \u0026\u0026 c \u003e d {\n\u2028\"q\""}}],"rawOutput":{"ok":true}}`},
		{"empty content list stays a list", Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: "c5", Content: []ToolContent{}}},
			`{"sessionUpdate":"tool_call_update","toolCallId":"c5","content":[]}`},
		{"chunk text escaped as before", Update{Type: AgentMessageChunk, MessageID: "m1", Chunk: &ContentBlock{Type: "text", Text: "<b>"}},
			`{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"\u003cb\u003e"},"messageId":"m1"}`},
		{"plan", Update{Type: PlanUpdated, Plan: []PlanEntry{{Content: "a", Status: "pending", Priority: "high"}}},
			`{"sessionUpdate":"plan","entries":[{"content":"a","status":"pending","priority":"high"}]}`},
		{"empty plan stays a list", Update{Type: PlanUpdated},
			`{"sessionUpdate":"plan","entries":[]}`},
		{"mode", Update{Type: CurrentModeUpdate, ModeID: "ask"},
			`{"sessionUpdate":"current_mode_update","currentModeId":"ask"}`},
		{"commands", Update{Type: AvailableCommandsUpdate, Commands: []Command{{Name: "mode", Description: "d", Input: &CommandInput{Hint: "h"}}}},
			`{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"mode","description":"d","input":{"hint":"h"}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.u)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("marshal:\n got %s\nwant %s", b, tt.want)
			}
			var back Update
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if tt.u.Type == PlanUpdated && tt.u.Plan == nil {
				tt.u.Plan = []PlanEntry{}
			}
			if !reflect.DeepEqual(back, tt.u) {
				t.Errorf("round trip:\n got %+v\nwant %+v", back, tt.u)
			}
		})
	}
}

func TestUpdateJSONRejectsIncomplete(t *testing.T) {
	for _, u := range []Update{{Type: AgentMessageChunk}, {Type: ToolCallStarted}, {Type: "bogus"}} {
		if _, err := json.Marshal(u); err == nil {
			t.Errorf("marshal %+v: want an error", u)
		}
	}
	var u Update
	if err := json.Unmarshal([]byte(`{"sessionUpdate":"nope"}`), &u); err == nil {
		t.Error("unmarshal of an unknown type: want an error")
	}
}

func TestModePolicy(t *testing.T) {
	groups := []tools.Group{tools.GroupRead, tools.GroupPlan, tools.GroupEdit, tools.GroupExecute, tools.GroupMCP}
	tests := []struct {
		mode     Mode
		exposed  string // groups exposed, in the order above, as letters
		approved string
	}{
		{ModeAsk, "rp---", "rp---"},
		{ModeCode, "rpemx", "rp---"},
		{ModeAutoEdit, "rpemx", "rpe--"},
		{ModeFullAuto, "rpemx", "rpemx"},
	}
	letters := "rpemx"
	for _, tt := range tests {
		var exp, app []byte
		for i, g := range groups {
			e, a := byte('-'), byte('-')
			if builtinModes().exposes(tt.mode, g) {
				e = letters[i]
			}
			if builtinModes().exposes(tt.mode, g) && policy.Mode(tt.mode).Approves(g) {
				a = letters[i]
			}
			exp, app = append(exp, e), append(app, a)
		}
		if string(exp) != tt.exposed || string(app) != tt.approved {
			t.Errorf("%s: exposed %s approved %s, want %s %s", tt.mode, exp, app, tt.exposed, tt.approved)
		}
	}
	if m, err := ParseMode(""); err != nil || m != ModeCode {
		t.Errorf("default mode = %q, %v", m, err)
	}
	if _, err := ParseMode("yolo"); err == nil {
		t.Error("ParseMode(yolo) succeeded")
	}
}
