package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestLiveOutputOverLSP: a client declaring
// experimental.tandem.terminalOutput gets run_command's output in
// tandem/update as ACP clients with terminal_output do (terminal_info on
// the tool_call, terminal_output pieces, terminal_exit at the end).
func TestLiveOutputOverLSP(t *testing.T) {
	t.Parallel()
	caps := map[string]any{"experimental": map[string]any{"tandem": map[string]any{"terminalOutput": true}}}
	f := newFixture(t, caps, "full-auto",
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "cmd1", Name: "run_command", Args: `{"command":"printf 'lsp live\\n'"}`}}},
		llmtest.Reply{Text: []string{"ran"}})
	if stop, err := f.prompt("run it"); err != nil || stop != "end_turn" {
		t.Fatalf("prompt = %q, %v", stop, err)
	}
	var info, exit bool
	var output strings.Builder
	for _, u := range taskUpdates(t, f.c.messages()) {
		if u["toolCallId"] != "cmd1" {
			continue
		}
		meta, _ := u["_meta"].(map[string]any)
		if _, ok := meta["terminal_info"]; ok && u["sessionUpdate"] == "tool_call" {
			info = true
		}
		if o, ok := meta["terminal_output"].(map[string]any); ok {
			s, _ := o["data"].(string)
			output.WriteString(s)
		}
		if e, ok := meta["terminal_exit"].(map[string]any); ok {
			exit = e["exit_code"] == float64(0) && e["terminal_id"] == "cmd1"
		}
	}
	if !info || !exit || output.String() != "lsp live\n" {
		b, _ := json.Marshal(taskUpdates(t, f.c.messages()))
		t.Errorf("info %v, exit %v, output %q; updates %s", info, exit, output.String(), b)
	}
}
