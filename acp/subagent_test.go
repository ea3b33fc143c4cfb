package acp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// subagentScript answers the parent with one task call for agent, then
// "done" once the report is back; child answers the child's requests,
// recognised by the agent's system prompt holding marker.
func subagentScript(agentName, marker string, child func(*llmtest.Request) llmtest.Reply) func(*llmtest.Request) llmtest.Reply {
	return func(r *llmtest.Request) llmtest.Reply {
		switch {
		case strings.Contains(r.System, marker):
			return child(r)
		case strings.Contains(r.LastUserText(), "REPORT"):
			return llmtest.Reply{Text: []string{"done"}}
		}
		args, _ := json.Marshal(map[string]string{"description": "look into it", "prompt": "What does a.txt say?", "agent": agentName})
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "task1", Name: "task", Args: string(args)}}}
	}
}

// TestSubagentOverACP runs the fixture's Claude Code agent through a real
// `tandem acp`: the child's read reaches the editor as a call of its own,
// nested under the task call in _meta, and the report is the call's result. A second agent granted edits asks through the editor.
func TestSubagentOverACP(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(subagentScript("finder", "FINDER-PROMPT-MARKER", func(r *llmtest.Request) llmtest.Reply {
		if len(r.Messages) == 1 {
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "read_file", Args: `{"path":"a.txt"}`}}}
		}
		return llmtest.Reply{Text: []string{"REPORT: " + r.LastUserText()}}
	}))
	ed := newEditor(t)
	p, dir, _ := startWithDefs(t, srv, ed, map[string]string{"a.txt": "alpha beta\n"})
	sid := p.newSession(t, dir)
	if stop, err := p.prompt(t, sid, "ask finder"); err != nil || stop != sdk.StopReasonEndTurn {
		t.Fatalf("prompt = %q, %v", stop, err)
	}
	var childRead bool
	var final string
	for _, r := range ed.sessionUpdates(sid) {
		if r.u.Tool == nil {
			continue
		}
		if r.u.Tool.ID != "task1" {
			if n := r.u.Nest; n == nil || n.ParentCall != "task1" || n.Agent != "finder" || !strings.HasPrefix(r.u.Tool.ID, "task1/") {
				t.Errorf("a child's update is not nested under the task: %s", r.raw)
			}
			childRead = childRead || r.u.Tool.Title == "Read a.txt"
			continue
		}
		if r.u.Type == agent.ToolCallStarted && r.u.Tool.Title != "Task (finder): look into it" {
			t.Errorf("task title = %q", r.u.Tool.Title)
		}
		for _, c := range r.u.Tool.Content {
			if c.Content != nil && r.u.Tool.Status == agent.ToolCompleted {
				final = c.Content.Text
			}
		}
	}
	if !childRead {
		t.Error("the child's read never showed as a nested call")
	}
	if !strings.Contains(final, "REPORT:") || !strings.Contains(final, "alpha beta") {
		t.Errorf("the task's final content = %q, want the report", final)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 || strings.Contains(reqs[1].System, "You are tandem") {
		t.Fatalf("%d requests; the child's system prompt must be its own", len(reqs))
	}
}

// TestSubagentAsksOverACP: an agent granted edits asks the same editor,
// under an id nested in the parent's call, and its write goes through
// fs/write_text_file.
func TestSubagentAsksOverACP(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(subagentScript("fixer", "You are fixer", func(r *llmtest.Request) llmtest.Reply {
		if len(r.Messages) == 1 {
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "w1", Name: "write_file", Args: `{"path":"b.txt","content":"fixed\n"}`}}}
		}
		return llmtest.Reply{Text: []string{"REPORT: " + r.LastUserText()}}
	}))
	ed := newEditor(t)
	p, dir, _ := startWithDefs(t, srv, ed, nil)
	sid := p.newSession(t, dir)
	if _, err := p.prompt(t, sid, "fix it"); err != nil {
		t.Fatal(err)
	}
	ed.mu.Lock()
	defer ed.mu.Unlock()
	if len(ed.permissions) != 1 || string(ed.permissions[0].ToolCall.ToolCallId) != "task1/w1" ||
		!strings.HasPrefix(*ed.permissions[0].ToolCall.Title, "fixer agent: ") {
		t.Fatalf("permission requests = %+v", ed.permissions)
	}
	if len(ed.writes) != 1 || ed.writes[0].Content != "fixed\n" || !strings.HasSuffix(ed.writes[0].Path, "/b.txt") {
		t.Errorf("writes = %+v", ed.writes)
	}
}

// TestCancelStopsSubagentOverACP: session/cancel while the child waits on
// the model ends the prompt as cancelled, fails the task call, and leaves
// the session usable.
func TestCancelStopsSubagentOverACP(t *testing.T) {
	srv := llmtest.NewServer(t)
	childAsked := make(chan struct{}, 1)
	srv.Handle(subagentScript("finder", "FINDER-PROMPT-MARKER", func(r *llmtest.Request) llmtest.Reply {
		select {
		case childAsked <- struct{}{}:
		default:
		}
		return llmtest.Reply{Text: []string{"searching"}, Hang: true}
	}))
	ed := newEditor(t)
	p, dir, _ := startWithDefs(t, srv, ed, nil)
	sid := p.newSession(t, dir)
	done := make(chan sdk.StopReason, 1)
	go func() {
		stop, _ := p.prompt(t, sid, "start")
		done <- stop
	}()
	select {
	case <-childAsked:
	case <-time.After(15 * time.Second):
		t.Fatal("the child never reached the model")
	}
	if err := p.conn.Cancel(ctxT(t), sdk.CancelNotification{SessionId: sid}); err != nil {
		t.Fatal(err)
	}
	select {
	case stop := <-done:
		if stop != sdk.StopReasonCancelled {
			t.Errorf("stop reason = %q", stop)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancel did not stop the child")
	}
	var status agent.ToolStatus
	for _, r := range ed.sessionUpdates(sid) {
		if r.u.Tool != nil && r.u.Tool.Status != "" {
			status = r.u.Tool.Status
		}
	}
	if status != agent.ToolFailed {
		t.Errorf("task call ended %q, want failed", status)
	}
	srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"fine"}} })
	if stop, err := p.prompt(t, sid, "next"); err != nil || stop != sdk.StopReasonEndTurn {
		t.Errorf("next prompt = %q, %v", stop, err)
	}
}
