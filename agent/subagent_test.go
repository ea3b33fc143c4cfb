package agent

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// finderFile is an agent definition in Claude Code's format.
const finderFile = `---
name: finder
description: Finds things in the workspace.
tools: Read, Grep, Glob
model: inherit
---
You are finder. CHILD-MARKER
`

// fixerFile grants edits.
const fixerFile = `---
name: fixer
description: Changes one file.
tools: read, edit
---
You are fixer. CHILD-MARKER
`

func isChild(r *llmtest.Request) bool { return strings.Contains(r.System, "CHILD-MARKER") }

func taskCall(id, agent, prompt string) llmtest.ToolCall {
	args, _ := json.Marshal(map[string]string{"description": "look around", "prompt": prompt, "agent": agent})
	return llmtest.ToolCall{ID: id, Name: "task", Args: string(args)}
}

// scriptSubagent answers the parent with one task call per prompt in
// prompts (then "done" once the reports are in) and each child with child.
func scriptSubagent(srv *llmtest.Server, agent string, prompts []string, child func(*llmtest.Request) llmtest.Reply) {
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		if isChild(r) {
			return child(r)
		}
		if strings.Contains(r.LastUserText(), "REPORT") {
			return llmtest.Reply{Text: []string{"done"}}
		}
		var calls []llmtest.ToolCall
		for i, p := range prompts {
			calls = append(calls, taskCall("t"+string(rune('1'+i)), agent, p))
		}
		return llmtest.Reply{ToolCalls: calls}
	})
}

// readThenReport is a child that reads a.txt, then reports what it read.
func readThenReport(r *llmtest.Request) llmtest.Reply {
	if len(r.Messages) == 1 {
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "read_file", Args: `{"path":"a.txt"}`}}}
	}
	return llmtest.Reply{Text: []string{"REPORT: " + strings.TrimSpace(r.LastUserText())}}
}

// TestSubagentFlowsThroughParent runs a Claude Code agent definition as a
// child: its calls and reply reach the editor as their own updates nested
// under the task call, its report is the
// call's result, its tools are read-only, its tokens count for the session,
// and nothing of its conversation enters the session's history.
func TestSubagentFlowsThroughParent(t *testing.T) {
	f := newFixture(t)
	s, h, _ := f.session(ModeCode, map[string]string{"a.txt": "alpha beta\n", ".claude/agents/finder.md": finderFile})
	scriptSubagent(f.srv, "finder", []string{"What does a.txt say?"}, readThenReport)
	if r, err := s.Prompt(context.Background(), prompt("ask the finder")); err != nil || r != StopEndTurn {
		t.Fatalf("prompt = %q, %v", r, err)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 4 || isChild(reqs[0]) || !isChild(reqs[1]) || !isChild(reqs[2]) || isChild(reqs[3]) {
		t.Fatalf("requests: %d, want parent, child, child, parent", len(reqs))
	}
	child := reqs[1]
	if want := []string{"read_file", "list_files", "search_files", "list_code_definition_names", "repo_map"}; !slices.Equal(child.Tools, want) {
		t.Errorf("child tools = %v, want %v", child.Tools, want)
	}
	if !slices.Contains(reqs[0].Tools, "task") || child.Model != reqs[0].Model || child.Messages[0].Content[0].Text != "What does a.txt say?" {
		t.Errorf("parent tools %v, models %s/%s, child prompt %+v", reqs[0].Tools, reqs[0].Model, child.Model, child.Messages[0])
	}
	res, ok := toolResult(reqs[3:], "t1")
	if !ok || res.IsError || !strings.Contains(res.Text, "REPORT:") || !strings.Contains(res.Text, "alpha beta") {
		t.Errorf("task result = %+v", res)
	}
	if n := len(reqs[3].Messages); n != 3 {
		t.Errorf("parent's follow-up carries %d messages, want 3: the child's stay out", n)
	}
	var childCalls []string
	var childText strings.Builder
	for _, u := range h.snapshot() {
		nested := u.Nest != nil && u.Nest.ParentCall == "t1" && u.Nest.Agent == "finder"
		switch {
		case u.Tool != nil && u.Tool.ID == "t1":
			if u.Nest != nil {
				t.Errorf("the task call itself is nested: %+v", u.Nest)
			}
		case u.Tool != nil:
			if !nested || !strings.HasPrefix(u.Tool.ID, "t1/") {
				t.Errorf("a child's call is not nested under t1: %+v %+v", u.Tool, u.Nest)
			}
			if u.Type == ToolCallStarted {
				childCalls = append(childCalls, u.Tool.Title)
			}
		case u.Type == AgentMessageChunk && nested:
			childText.WriteString(u.Chunk.Text)
		}
	}
	if !slices.Equal(childCalls, []string{"Read a.txt"}) {
		t.Errorf("the child's calls as their own updates: %q", childCalls)
	}
	if !strings.Contains(childText.String(), "REPORT:") {
		t.Errorf("the child's reply was not streamed nested: %q", childText.String())
	}
	if st := h.toolStatus()["t1"]; st != ToolCompleted {
		t.Errorf("task status = %s", st)
	}
	if turn, _ := s.Usage(); turn.Requests != 4 {
		t.Errorf("turn usage counts %d requests, want 4 (the child's included)", turn.Requests)
	}
}

// TestSubagentAsksLikeItsParent: a child granted edits asks through the
// same policy and host, the question naming its call under the parent's,
// and it cannot edit in a mode that offers no edits.
func TestSubagentAsksLikeItsParent(t *testing.T) {
	f := newFixture(t)
	s, h, dir := f.session(ModeCode, map[string]string{".tandem/agents/fixer.md": fixerFile})
	scriptSubagent(f.srv, "fixer", []string{"Create b.txt"}, func(r *llmtest.Request) llmtest.Reply {
		if len(r.Messages) == 1 {
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "w1", Name: "write_file", Args: `{"path":"b.txt","content":"made by fixer\n"}`}}}
		}
		return llmtest.Reply{Text: []string{"REPORT: " + r.LastUserText()}}
	})
	if _, err := s.Prompt(context.Background(), prompt("fix")); err != nil {
		t.Fatal(err)
	}
	if h.askCount() != 1 || h.asks[0].ToolCall.ID != "t1/w1" {
		t.Fatalf("asks = %+v", h.asks)
	}
	if got, err := h.Host.ReadFile(context.Background(), dir+"/b.txt"); err != nil || got != "made by fixer\n" {
		t.Errorf("b.txt = %q, %v", got, err)
	}
	// In ask mode the same agent gets read tools only.
	if err := s.SetMode(ModeAsk); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prompt(context.Background(), prompt("fix again")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	for _, r := range reqs[4:] {
		if isChild(r) && slices.Contains(r.Tools, "write_file") {
			t.Errorf("child offered write_file in ask mode: %v", r.Tools)
		}
	}
}

// TestSubagentsRunInParallelBounded: three task calls in one response run
// at once, but never more than subagents.maxParallel.
func TestSubagentsRunInParallelBounded(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.Subagents.MaxParallel = 2 })
	s, _, _ := f.session(ModeCode, map[string]string{".claude/agents/finder.md": finderFile})
	var (
		mu             sync.Mutex
		inflight, peak int
		filled         bool
	)
	full := make(chan struct{}) // closed once both slots are taken
	scriptSubagent(f.srv, "finder", []string{"one", "two", "three"}, func(r *llmtest.Request) llmtest.Reply {
		mu.Lock()
		inflight++
		peak = max(peak, inflight)
		if inflight == 2 && !filled {
			filled = true
			close(full)
		}
		mu.Unlock()
		select {
		case <-full:
		case <-time.After(10 * time.Second): // peak stays 1: the test fails
		}
		// With both slots taken, a window for a third child, which the
		// bound keeps out, to show up (its absence is what is under test).
		time.Sleep(100 * time.Millisecond)
		mu.Lock()
		inflight--
		mu.Unlock()
		return llmtest.Reply{Text: []string{"REPORT: " + r.LastUserText()}}
	})
	if _, err := s.Prompt(context.Background(), prompt("go")); err != nil {
		t.Fatal(err)
	}
	if peak != 2 {
		t.Errorf("at most %d children ran at once, want 2", peak)
	}
	reqs := f.srv.Requests()
	for _, id := range []string{"t1", "t2", "t3"} {
		if r, ok := toolResult(reqs, id); !ok || !strings.Contains(r.Text, "REPORT") {
			t.Errorf("%s result = %+v", id, r)
		}
	}
}

// TestCancelStopsSubagent: cancelling the parent ends a child waiting on
// the model, the task call fails as cancelled, nothing of the child is
// still running once the prompt is answered, the session takes the next
// prompt, and closing leaves no goroutine behind.
func TestCancelStopsSubagent(t *testing.T) {
	f := newFixture(t)
	s, h, _ := f.session(ModeCode, map[string]string{".claude/agents/finder.md": finderFile})
	childAsked := make(chan struct{}, 1)
	scriptSubagent(f.srv, "finder", []string{"hang"}, func(r *llmtest.Request) llmtest.Reply {
		childAsked <- struct{}{}
		return llmtest.Reply{Text: []string{"still looking"}, Hang: true}
	})
	done := make(chan StopReason, 1)
	go func() {
		r, _ := s.Prompt(context.Background(), prompt("start"))
		done <- r
	}()
	select {
	case <-childAsked:
	case <-time.After(10 * time.Second):
		t.Fatal("the child never asked the model")
	}
	s.Cancel()
	select {
	case r := <-done:
		if r != StopCancelled {
			t.Errorf("stop reason = %q", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancel did not stop the child")
	}
	if st := h.toolStatus()["t1"]; st != ToolFailed {
		t.Errorf("task status = %s, want failed", st)
	}
	// The child runs inside the task call, which returned before the
	// turn could answer: a goroutine still in its code now is stuck.
	for _, g := range ownGoroutines() {
		if strings.Contains(g, ").delegate(") || strings.Contains(g, ").runTask(") {
			t.Errorf("the child still runs after the prompt was answered:\n%s", g)
		}
	}
	f.srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"fine"}} })
	if r, err := s.Prompt(context.Background(), prompt("next")); err != nil || r != StopEndTurn {
		t.Errorf("next prompt = %q, %v", r, err)
	}
	// Whatever else the child started (its request's stream) is gone
	// once Close has returned: one check after it, as goleak would.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.agent.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if left := lingering(); len(left) > 0 {
		t.Errorf("goroutines outlived Close:\n%s", strings.Join(left, "\n\n"))
	}
}

// TestExploreIsTheDefault: the task tool lists every agent, the built-in
// explore among them, and a call naming none runs explore; a call naming
// an unknown agent tells the model which exist.
func TestExploreIsTheDefault(t *testing.T) {
	f := newFixture(t)
	s, _, _ := f.session(ModeCode, map[string]string{".claude/agents/finder.md": finderFile})
	f.srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		switch {
		case strings.Contains(r.System, "You are explore"):
			return llmtest.Reply{Text: []string{"REPORT from explore"}}
		case strings.Contains(r.LastUserText(), "REPORT"):
			return llmtest.Reply{Text: []string{"done"}}
		}
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{
			{ID: "t1", Name: "task", Args: `{"description":"d","prompt":"look"}`},
			{ID: "t2", Name: "task", Args: `{"description":"d","prompt":"look","agent":"nobody"}`},
		}}
	})
	if _, err := s.Prompt(context.Background(), prompt("go")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	body := string(reqs[0].Body)
	if !strings.Contains(body, `- explore: Searches and reads`) || !strings.Contains(body, `- finder: Finds things`) {
		t.Errorf("the task tool does not list the agents: %s", body)
	}
	if r, ok := toolResult(reqs, "t1"); !ok || r.Text != "REPORT from explore" {
		t.Errorf("t1 = %+v", r)
	}
	if r, ok := toolResult(reqs, "t2"); !ok || !r.IsError || !strings.Contains(r.Text, "Use one of: explore, finder.") {
		t.Errorf("t2 = %+v", r)
	}
}

// shellFile grants commands.
const shellFile = `---
name: shell
description: Runs commands.
tools: Read, Bash
---
You are shell. CHILD-MARKER
`

// TestCancelKillsSubagentCommand: a child running a command when the
// parent is cancelled leaves no process behind.
func TestCancelKillsSubagentCommand(t *testing.T) {
	f := newFixture(t)
	s, _, dir := f.session(ModeFullAuto, map[string]string{".claude/agents/shell.md": shellFile})
	scriptSubagent(f.srv, "shell", []string{"run it"}, func(r *llmtest.Request) llmtest.Reply {
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "run_command",
			Args: `{"command":"sleep 60 & echo $! > child.fifo; wait"}`}}}
	})
	pids := testenv.FifoLines(t, filepath.Join(dir, "child.fifo"))
	done := make(chan StopReason, 1)
	go func() {
		r, _ := s.Prompt(context.Background(), prompt("go"))
		done <- r
	}()
	pid, err := strconv.Atoi(testenv.NextLine(t, pids, 10*time.Second, "the child's pid"))
	if err != nil {
		t.Fatal(err)
	}
	s.Cancel()
	select {
	case r := <-done:
		if r != StopCancelled {
			t.Errorf("stop reason = %q", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancel did not end the turn")
	}
	if !testenv.WaitExited(pid, 10*time.Second) {
		t.Fatal("the child's command outlived the cancel")
	}
}
