package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// parentOf is the task call a tandem/update (or a permission question's
// toolCall) is nested under, read from both _meta keys; "" when it is not
// nested or the keys disagree.
func parentOf(u map[string]any) string {
	m, _ := u["_meta"].(map[string]any)
	cc, _ := m["claudeCode"].(map[string]any)
	td, _ := m["tandem"].(map[string]any)
	a, _ := cc["parentToolUseId"].(string)
	b, _ := td["parentToolCallId"].(string)
	if a != b {
		return ""
	}
	return a
}

// sessionUpdates lists the update objects of msgs' tandem/update
// notifications.
func sessionUpdates(t *testing.T, msgs []rpcMsg) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, m := range msgs {
		if m.Method != "tandem/update" {
			continue
		}
		var n struct {
			Update map[string]any `json:"update"`
		}
		if err := json.Unmarshal(m.Params, &n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n.Update)
	}
	return out
}

// TestNestedSubagentAsksAndReplaysOverLSP: a subagent's permission question
// (tandem/requestPermission) names the agent and carries the task call in
// _meta as its updates do; the child's call and reply nest under the task
// call and the task call itself does not; and tandem/loadSession in a new
// process replays the same nesting (issue #31 points 4 and 9).
func TestNestedSubagentAsksAndReplaysOverLSP(t *testing.T) {
	t.Parallel()
	model := llmtest.NewServer(t)
	model.Handle(func(r *llmtest.Request) llmtest.Reply {
		child := strings.Contains(r.System, "You are fixer")
		switch {
		case child && len(r.Messages) == 1:
			return llmtest.Reply{Text: []string{"child ", "working"},
				ToolCalls: []llmtest.ToolCall{{ID: "w1", Name: "write_file", Args: `{"path":"b.txt","content":"fixed\n"}`}}}
		case child:
			return llmtest.Reply{Text: []string{"REPORT: wrote b.txt"}}
		case strings.Contains(r.LastUserText(), "REPORT"):
			return llmtest.Reply{Text: []string{"parent done"}}
		}
		args, _ := json.Marshal(map[string]string{"description": "fix", "prompt": "make b.txt", "agent": "fixer"})
		return llmtest.Reply{Text: []string{"delegating"}, ToolCalls: []llmtest.ToolCall{{ID: "task1", Name: "task", Args: string(args)}}}
	})
	root, _ := filepath.EvalSymlinks(t.TempDir())
	if err := os.MkdirAll(filepath.Join(root, ".tandem", "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	fixer := "---\nname: fixer\ndescription: Makes one small change.\ntools: read, edit\n---\nYou are fixer. Make the change, then report.\n"
	if err := os.WriteFile(filepath.Join(root, ".tandem", "agents", "fixer.md"), []byte(fixer), 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	caps := map[string]any{"experimental": map[string]any{"tandem": map[string]any{"permissions": true}}}
	c := startClient(t, fakeModelEnvHome(t, model, home))
	c.initialize(root, caps)
	var asked []map[string]any
	c.onRequest(func(method string, params json.RawMessage) (any, *rpcError) {
		if method != "tandem/requestPermission" {
			return nil, &rpcError{Code: -32601, Message: method}
		}
		var p struct {
			ToolCall map[string]any `json:"toolCall"`
		}
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &rpcError{Code: -32602, Message: err.Error()}
		}
		asked = append(asked, p.ToolCall)
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}}, nil
	})
	var ns struct{ SessionID string }
	c.mustCall("tandem/newSession", map[string]any{}, &ns)
	var res struct{ StopReason string }
	c.mustCall("tandem/prompt", map[string]any{"sessionId": ns.SessionID, "prompt": []map[string]string{{"type": "text", "text": "FIX it"}}}, &res)
	if res.StopReason != "end_turn" {
		t.Fatalf("prompt ended %q", res.StopReason)
	}
	if len(asked) != 1 {
		t.Fatalf("%d permission questions, want the child's write: %v", len(asked), asked)
	}
	if title, _ := asked[0]["title"].(string); !strings.HasPrefix(title, "fixer agent: ") || asked[0]["toolCallId"] != "task1/w1" || parentOf(asked[0]) != "task1" {
		t.Errorf("the child's question is not named and nested: %v", asked[0])
	}
	if b, err := os.ReadFile(filepath.Join(root, "b.txt")); err != nil || string(b) != "fixed\n" {
		t.Errorf("b.txt = %q, %v", b, err)
	}
	checkNestingLSP(t, "live", sessionUpdates(t, c.messages()))

	// A new process replays the stored session with the same nesting.
	c.mustCall("shutdown", nil, nil)
	c.notify("exit", nil)
	c.waitExit()
	r := startClient(t, fakeModelEnvHome(t, model, home))
	r.initialize(root, nil)
	r.mustCall("tandem/loadSession", map[string]any{"sessionId": ns.SessionID, "cwd": root}, nil)
	checkNestingLSP(t, "replayed", sessionUpdates(t, r.messages()))
}

// checkNestingLSP: task1's child (its call task1/w1 and its reply) nests
// under task1; task1 and the parent's own text do not nest.
func checkNestingLSP(t *testing.T, what string, updates []map[string]any) {
	t.Helper()
	var reply, parent strings.Builder
	calls := 0
	for _, u := range updates {
		id, _ := u["toolCallId"].(string)
		text := ""
		if c, ok := u["content"].(map[string]any); ok {
			text, _ = c["text"].(string)
		}
		switch {
		case id == "task1":
			if u["_meta"] != nil && parentOf(u) != "" {
				t.Errorf("%s: the task call is nested: %v", what, u)
			}
		case id == "task1/w1":
			calls++
			if parentOf(u) != "task1" {
				t.Errorf("%s: the child's call is not nested under task1: %v", what, u)
			}
		case u["sessionUpdate"] == "agent_message_chunk" && parentOf(u) == "task1":
			reply.WriteString(text)
		case u["sessionUpdate"] == "agent_message_chunk":
			parent.WriteString(text)
		}
	}
	if calls == 0 || !strings.Contains(reply.String(), "child working") {
		t.Errorf("%s: child's call seen %d times, nested reply %q", what, calls, reply.String())
	}
	if strings.Contains(parent.String(), "child") || !strings.Contains(parent.String(), "delegating") {
		t.Errorf("%s: the parent's own text %q", what, parent.String())
	}
}
