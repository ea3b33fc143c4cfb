package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// fixerAgent may edit: its writes ask the editor.
const fixerAgent = "---\nname: fixer\ndescription: Makes one small change.\ntools: read, edit\n---\nYou are fixer. Make the change, then report.\n"

// TestNestedSubagentRawACP drives a subagent through a real `tandem acp`
// as a raw client, every message checked against the schema: everything
// the child causes (its reply, its tool call and that call's updates)
// comes as its own update with the task call's id in _meta under both
// claudeCode.parentToolUseId and tandem.parentToolCallId, and nothing of
// the parent's does; its permission question names the agent and carries
// the same _meta; session/cancel while the child's question is open ends
// the prompt as cancelled and fails both calls; and session/load in a new
// process replays the same nesting.
func TestNestedSubagentRawACP(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		child := strings.Contains(r.System, "You are fixer")
		switch {
		case child && len(r.Messages) == 1:
			id, path := "w1", "b.txt"
			if strings.Contains(r.LastUserText(), "HANG") {
				id, path = "w2", "c.txt"
			}
			return llmtest.Reply{Text: []string{"child ", "working"},
				ToolCalls: []llmtest.ToolCall{{ID: id, Name: "write_file", Args: `{"path":"` + path + `","content":"fixed\n"}`}}}
		case child:
			return llmtest.Reply{Text: []string{"REPORT: wrote b.txt"}}
		case strings.Contains(r.LastUserText(), "REPORT"):
			return llmtest.Reply{Text: []string{"parent done"}}
		}
		id, job := "task1", "make b.txt"
		if strings.Contains(r.LastUserText(), "HANG") {
			id, job = "task2", "HANG"
		}
		args, _ := json.Marshal(map[string]string{"description": "fix", "prompt": job, "agent": "fixer"})
		return llmtest.Reply{Text: []string{"delegating"}, ToolCalls: []llmtest.ToolCall{{ID: id, Name: "task", Args: string(args)}}}
	})
	home, ws := t.TempDir(), workspace(t, map[string]string{".tandem/agents/fixer.md": fixerAgent})
	url := srv.BaseURL(llmtest.Anthropic)
	caps := map[string]any{"fs": map[string]bool{"readTextFile": false, "writeTextFile": false}, "terminal": false}
	c := startRaw(t, home, url, caps)
	sid := c.newSession(t, ws)

	if stop := c.prompt(t, sid, "FIX it"); stop != "end_turn" {
		t.Fatalf("prompt ended %q", stop)
	}
	var live []map[string]any
	var asked bool
	for _, m := range c.since(0) {
		switch m.Method {
		case "session/update":
			live = append(live, m.update())
		case "session/request_permission":
			asked = true
			var p struct {
				ToolCall map[string]any `json:"toolCall"`
			}
			_ = json.Unmarshal(m.Params, &p)
			if title, _ := p.ToolCall["title"].(string); !strings.HasPrefix(title, "fixer agent: ") {
				t.Errorf("the child's question does not name it: %q", title)
			}
			if p.ToolCall["toolCallId"] != "task1/w1" || parentOf(p.ToolCall) != "task1" {
				t.Errorf("the child's question is not nested: %s", m.raw)
			}
		}
	}
	if !asked {
		t.Fatal("the child's write never asked")
	}
	checkNesting(t, live, "task1", "task1/w1")
	if b, err := os.ReadFile(filepath.Join(ws, "b.txt")); err != nil || string(b) != "fixed\n" {
		t.Errorf("b.txt = %q, %v", b, err)
	}

	// Cancel while the child's question is open.
	release := make(chan struct{})
	defer close(release)
	c.ask = func(json.RawMessage) any {
		<-release
		return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}
	}
	from := c.count()
	stopped := make(chan string, 1)
	go func() { stopped <- c.prompt(t, sid, "HANG") }()
	c.await(t, from, "question from the hung child", func(m wireMsg) bool { return m.Method == "session/request_permission" })
	answered(t, c.peer.Notify("session/cancel", map[string]any{"sessionId": sid}))
	if stop := <-stopped; stop != "cancelled" {
		t.Errorf("cancelled prompt ended %q", stop)
	}
	ended := map[string]string{}
	for _, m := range c.since(from) {
		if u := m.update(); u != nil && u["status"] != nil {
			id, _ := u["toolCallId"].(string)
			ended[id], _ = u["status"].(string)
		}
	}
	if ended["task2"] != "failed" || ended["task2/w2"] != "failed" {
		t.Errorf("after cancel: task %q, child's write %q; want both failed", ended["task2"], ended["task2/w2"])
	}
	if _, err := os.Stat(filepath.Join(ws, "c.txt")); err == nil {
		t.Error("the cancelled child's write happened")
	}

	// Replay in a new process keeps the nesting.
	c.stop()
	r := startRaw(t, home, url, caps)
	answered(t, r.peer.Call("session/load", map[string]any{"sessionId": sid, "cwd": ws, "mcpServers": []any{}}, nil))
	var replayed []map[string]any
	for _, m := range r.since(0) {
		if m.Method == "session/update" {
			replayed = append(replayed, m.update())
		}
	}
	checkNesting(t, replayed, "task1", "task1/w1")
	checkNesting(t, replayed, "task2", "task2/w2")
}

// checkNesting checks that the updates of the child of task nest under it
// (its reply and its call child) and the task call itself does not; the
// updates of other tasks' children are left alone.
func checkNesting(t *testing.T, updates []map[string]any, task, child string) {
	t.Helper()
	var reply strings.Builder
	var childUpdates, taskUpdates int
	for _, u := range updates {
		id, _ := u["toolCallId"].(string)
		p := parentOf(u)
		switch {
		case p != "" && p != task:
			continue // another task's child
		case id == task:
			taskUpdates++
			if meta(u) != nil {
				t.Errorf("the task call is nested: %v", u)
			}
		case id == child:
			childUpdates++
			if p != task {
				t.Errorf("the child's call is not nested under %s: %v", task, u)
			}
		case u["sessionUpdate"] == "agent_message_chunk" && p == task:
			c, _ := u["content"].(map[string]any)
			s, _ := c["text"].(string)
			reply.WriteString(s)
			if td, _ := meta(u)["tandem"].(map[string]any); td["agent"] != "fixer" {
				t.Errorf("the child's chunk does not name its agent: %v", u)
			}
		case p != "":
			t.Errorf("an update of %s's child that is neither its call nor its reply: %v", task, u)
		}
	}
	if taskUpdates == 0 || childUpdates < 2 || !strings.Contains(reply.String(), "child working") {
		t.Errorf("%s: %d task updates, %d of the child's call, child's reply %q", task, taskUpdates, childUpdates, reply.String())
	}
}
