package acp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// These tests spawn the real `tandem acp` over stdio, play the editor with
// the SDK's client side, and answer model requests with the fake server.

func TestTwoSessionsTwoWorkspaces(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		// Slow chunks interleave the two turns on the wire.
		word := "alpha"
		if strings.Contains(r.LastUserText(), "beta") {
			word = "beta"
		}
		return llmtest.Reply{Text: []string{word + "-1 ", word + "-2 ", word + "-3"}, Delay: llmtest.Duration(20 * time.Millisecond)}
	})
	ed := newEditor(t)
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, true)
	dirA := workspace(t, map[string]string{"a.txt": "A"})
	dirB := workspace(t, map[string]string{"b.txt": "B"})
	sa, sb := p.newSession(t, dirA), p.newSession(t, dirB)
	if sa == sb {
		t.Fatalf("two sessions share id %s", sa)
	}

	var wg sync.WaitGroup
	reasons := map[string]sdk.StopReason{}
	var mu sync.Mutex
	for _, c := range []struct {
		sid  sdk.SessionId
		word string
	}{{sa, "alpha"}, {sb, "beta"}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := p.prompt(t, c.sid, "say "+c.word)
			if err != nil {
				t.Errorf("prompt %s: %v", c.word, err)
			}
			mu.Lock()
			reasons[c.word] = r
			mu.Unlock()
		}()
	}
	wg.Wait()
	for w, r := range reasons {
		if r != sdk.StopReasonEndTurn {
			t.Errorf("%s: stop reason %q", w, r)
		}
	}
	if got := ed.agentText(sa); got != "alpha-1 alpha-2 alpha-3" {
		t.Errorf("session A text %q", got)
	}
	if got := ed.agentText(sb); got != "beta-1 beta-2 beta-3" {
		t.Errorf("session B text %q", got)
	}
	// Each model request saw only its own workspace.
	for _, r := range srv.Requests() {
		mine, other := dirA, dirB
		if strings.Contains(r.LastUserText(), "beta") {
			mine, other = dirB, dirA
		}
		if !strings.Contains(r.System, mine) || strings.Contains(r.System, other) {
			t.Errorf("request %d system prompt names the wrong workspace:\n%s", r.N, r.System)
		}
	}
}

func TestEditThroughEditorWithPermission(t *testing.T) {
	const old = "package main\n\nfunc main() {}\n"
	const want = "package main\n\nfunc main() { println(\"hi\") }\n"
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "call_edit", Name: "edit_file",
			Args: `{"path":"main.go","old_string":"func main() {}","new_string":"func main() { println(\"hi\") }"}`, Split: 3}}},
		llmtest.Reply{Text: []string{"Edited main.go."}},
	)
	ed := newEditor(t)
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, false)
	dir := workspace(t, map[string]string{"main.go": old})
	sid := p.newSession(t, dir)
	reason, err := p.prompt(t, sid, "make main print hi")
	if err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %q, %v", reason, err)
	}
	path := filepath.Join(dir, "main.go")

	ed.mu.Lock()
	perms, writes := ed.permissions, ed.writes
	ed.mu.Unlock()
	if len(perms) != 1 {
		t.Fatalf("%d permission requests, want 1", len(perms))
	}
	var names []string
	for _, o := range perms[0].Options {
		names = append(names, string(o.Kind))
	}
	if got := strings.Join(names, ","); got != "allow_once,allow_always,reject_once,reject_always" {
		t.Errorf("permission options %s", got)
	}
	diff := findDiff(t, perms[0].ToolCall.Content)
	if diff == nil || diff.Path != path || diff.OldText == nil || *diff.OldText != old || diff.NewText != want {
		t.Errorf("permission request does not carry the diff: %s", jsonString(perms[0].ToolCall))
	}
	if len(writes) != 1 || writes[0].Path != path || writes[0].Content != want {
		t.Fatalf("fs/write_text_file calls: %s", jsonString(writes))
	}
	if data, _ := os.ReadFile(path); string(data) != old {
		t.Errorf("the edit went to disk instead of only through the editor: %q", data)
	}
	// The editor saw the tool call before being asked about it, and its end.
	var started, completed bool
	diffs := 0 // updates carrying the diff: shown once, since the client keeps content it was sent
	for _, r := range ed.sessionUpdates(sid) {
		if r.u.Tool == nil || r.u.Tool.ID != string(perms[0].ToolCall.ToolCallId) {
			continue
		}
		for _, c := range r.u.Tool.Content {
			if c.Type == "diff" {
				diffs++
			}
		}
		if r.u.Type == agent.ToolCallStarted {
			started = true
			if !wireBefore(ed, "tool_call:"+r.u.Tool.ID, "permission:"+r.u.Tool.ID) {
				t.Errorf("tool_call was not on the wire before its permission request: %v", ed.wire)
			}
			if r.u.Tool.Kind != "edit" {
				t.Errorf("tool call kind %q, want edit", r.u.Tool.Kind)
			}
		}
		if r.u.Type == agent.ToolCallUpdated && r.u.Tool.Status == agent.ToolCompleted {
			completed = true
		}
	}
	if !started || !completed {
		t.Errorf("tool_call seen %v, completed %v; updates: %v", started, completed, ed.sessionUpdates(sid))
	}
	if diffs != 1 {
		t.Errorf("%d tool call updates carry the diff, want exactly one", diffs)
	}
	if got := ed.agentText(sid); got != "Edited main.go." {
		t.Errorf("agent text %q", got)
	}
}

func TestRejectedEdit(t *testing.T) {
	const old = "hello\n"
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"greeting.txt","content":"bye\n"}`}}},
		llmtest.Reply{Text: []string{"Understood, leaving it."}},
	)
	ed := newEditor(t)
	ed.answer = func(sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		return sdk.NewRequestPermissionOutcomeSelected("reject_once")
	}
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, false)
	dir := workspace(t, map[string]string{"greeting.txt": old})
	sid := p.newSession(t, dir)
	reason, err := p.prompt(t, sid, "change the greeting")
	if err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %q, %v", reason, err)
	}
	ed.mu.Lock()
	writes := len(ed.writes)
	ed.mu.Unlock()
	if writes != 0 {
		t.Errorf("a rejected edit was written through the editor")
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "greeting.txt")); string(data) != old {
		t.Errorf("a rejected edit reached the disk: %q", data)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(strings.ToLower(reqs[1].LastUserText()), "reject") {
		t.Errorf("the model was not told about the rejection: %q", reqs[len(reqs)-1].LastUserText())
	}
	failed := false
	for _, r := range ed.sessionUpdates(sid) {
		failed = failed || (r.u.Type == agent.ToolCallUpdated && r.u.Tool.Status == agent.ToolFailed)
	}
	if !failed {
		t.Errorf("the rejected tool call did not end failed")
	}
}

func TestReadUnsavedBuffer(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"notes.txt"}`}}},
		llmtest.Reply{Text: []string{"Read it."}},
	)
	ed := newEditor(t)
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, false)
	dir := workspace(t, map[string]string{"notes.txt": "saved on disk\n"})
	path := filepath.Join(dir, "notes.txt")
	ed.buffers[path] = "UNSAVED buffer text\n"
	sid := p.newSession(t, dir)
	if reason, err := p.prompt(t, sid, "read my notes"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %q, %v", reason, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if got := reqs[1].LastUserText(); !strings.Contains(got, "UNSAVED buffer text") || strings.Contains(got, "saved on disk") {
		t.Errorf("the model did not see the unsaved buffer: %q", got)
	}
	ed.mu.Lock()
	reads := append([]string(nil), ed.reads...)
	ed.mu.Unlock()
	found := false
	for _, r := range reads {
		found = found || r == path
	}
	if !found {
		t.Errorf("no fs/read_text_file for %s (reads %v)", path, reads)
	}
}

func TestCommandInEditorTerminal(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo hello-from-terminal; pwd"}`}}},
		llmtest.Reply{Text: []string{"Ran it."}},
	)
	ed := newEditor(t)
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, true)
	dir := workspace(t, nil)
	sid := p.newSession(t, dir)
	if reason, err := p.prompt(t, sid, "run the greeting"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %q, %v", reason, err)
	}
	ed.mu.Lock()
	created, released, perms := ed.created, ed.released, ed.permissions
	ed.mu.Unlock()
	if len(created) != 1 {
		t.Fatalf("%d terminals created, want 1", len(created))
	}
	c := created[0]
	if c.Command != "sh" || strings.Join(c.Args, " ") != "-c echo hello-from-terminal; pwd" || c.Cwd == nil || *c.Cwd != dir {
		t.Errorf("terminal/create %s", jsonString(c))
	}
	if len(released) != 1 || released[0] != "term-1" {
		t.Errorf("terminals released: %v", released)
	}
	if len(perms) != 1 || !strings.Contains(jsonString(perms[0].ToolCall), "echo hello-from-terminal; pwd") {
		t.Fatalf("the permission request does not show the command: %s", jsonString(perms))
	}
	// Pending while the editor asks; in progress only once approved.
	id := string(perms[0].ToolCall.ToolCallId)
	if !wireBefore(ed, "status:pending:"+id, "permission:"+id) || !wireBefore(ed, "permission:"+id, "status:in_progress:"+id) {
		ed.mu.Lock()
		t.Errorf("status order around the permission request: %v", ed.wire)
		ed.mu.Unlock()
	}
	// The terminal is shown once; no later update repeats it.
	shown := 0
	for _, r := range ed.sessionUpdates(sid) {
		if r.u.Tool != nil {
			for _, c := range r.u.Tool.Content {
				if c.Type == "terminal" && c.TerminalID == "term-1" {
					shown++
				}
			}
		}
	}
	if shown != 1 {
		t.Errorf("%d tool call updates show the terminal, want 1", shown)
	}
	if got := srv.Requests()[1].LastUserText(); !strings.Contains(got, "hello-from-terminal") || !strings.Contains(got, dir) {
		t.Errorf("the model did not get the terminal output: %q", got)
	}
}

func TestCancelMidStream(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{Text: []string{"first words ", "and more"}, Hang: true},
		llmtest.Reply{Text: []string{"after cancel"}},
	)
	ed := newEditor(t)
	firstChunk := make(chan struct{})
	var once sync.Once
	ed.onUpdate = func(_ string, r recorded) {
		if r.u.Type == agent.AgentMessageChunk {
			once.Do(func() { close(firstChunk) })
		}
	}
	p := startTandem(t, srv, t.TempDir(), ed)
	p.initialize(t, true, true)
	sid := p.newSession(t, workspace(t, nil))
	other := p.newSession(t, workspace(t, nil))

	type answer struct {
		reason sdk.StopReason
		err    error
		at     time.Time
	}
	done := make(chan answer, 1)
	go func() {
		r, err := p.prompt(t, sid, "talk forever")
		done <- answer{r, err, time.Now()}
	}()
	select {
	case <-firstChunk:
	case <-time.After(10 * time.Second):
		t.Fatal("no agent_message_chunk before cancelling")
	}
	// A second prompt meanwhile is queued, not refused: TestQueuedPromptsOverACP.
	sent := time.Now()
	if err := p.conn.Cancel(ctxT(t), sdk.CancelNotification{SessionId: sid}); err != nil {
		t.Fatal(err)
	}
	var a answer
	select {
	case a = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the prompt did not end after session/cancel")
	}
	if a.err != nil || a.reason != sdk.StopReasonCancelled {
		t.Fatalf("cancelled prompt answered %q, %v", a.reason, a.err)
	}
	// The issue asks for 100 ms; allow slack for a loaded machine under -race.
	if d := a.at.Sub(sent); d > 500*time.Millisecond {
		t.Errorf("cancel took %v", d)
	}
	t.Logf("cancel answered after %v", a.at.Sub(sent))
	if reason, err := p.prompt(t, sid, "are you there"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt after cancel: %q, %v", reason, err)
	}
	if got := ed.agentText(sid); !strings.HasSuffix(got, "after cancel") {
		t.Errorf("text after cancel %q", got)
	}
	if n := len(ed.sessionUpdates(other)); n != 1 {
		t.Errorf("the other session got %d updates, want only its commands", n)
	}
}

func TestLoadInFreshProcess(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "update_plan", Args: `{"plan":[{"content":"look around","status":"completed"},{"content":"answer","status":"in_progress"}]}`}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo replayed-output"}`}}},
		llmtest.Reply{Text: []string{"remember ", "this reply"}},
	)
	home := t.TempDir()
	dir := workspace(t, nil)

	ed1 := newEditor(t)
	p1 := startTandem(t, srv, home, ed1)
	p1.initialize(t, true, true)
	sid := p1.newSession(t, dir)
	if reason, err := p1.prompt(t, sid, "first question"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %q, %v", reason, err)
	}
	p1.closeAndWait(t)

	ed2 := newEditor(t)
	p2 := startTandem(t, srv, home, ed2)
	p2.initialize(t, true, true)
	list, err := p2.conn.ListSessions(ctxT(t), sdk.ListSessionsRequest{Cwd: &dir})
	if err != nil {
		t.Fatalf("session/list: %v", err)
	}
	if len(list.Sessions) != 1 || list.Sessions[0].SessionId != sid || list.Sessions[0].Title == nil || !strings.Contains(*list.Sessions[0].Title, "first question") {
		t.Errorf("session/list: %s", jsonString(list))
	}
	elsewhere := t.TempDir()
	if other, err := p2.conn.ListSessions(ctxT(t), sdk.ListSessionsRequest{Cwd: &elsewhere}); err != nil || len(other.Sessions) != 0 {
		t.Errorf("session/list for another cwd: %s, %v", jsonString(other), err)
	}

	if _, err := p2.conn.LoadSession(ctxT(t), sdk.LoadSessionRequest{SessionId: sid, Cwd: dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	// Everything replayed is in before the response (the SDK client handles
	// notifications read before a response first).
	var kinds []string
	for _, r := range ed2.sessionUpdates(sid) {
		kinds = append(kinds, r.kind)
	}
	joined := strings.Join(kinds, ",")
	for _, want := range []string{"user_message_chunk", "tool_call", "plan", "agent_message_chunk"} {
		if !strings.Contains(joined, want) {
			t.Errorf("replay lacks %s: %s", want, joined)
		}
	}
	if got := ed2.agentText(sid); got != "remember this reply" {
		t.Errorf("replayed agent text %q", got)
	}
	// The terminal the command ran in is gone: the replay shows its output
	// as text. The plan shows once, as the plan, with priorities.
	var replayedOutput bool
	for _, r := range ed2.sessionUpdates(sid) {
		if r.kind == "plan" && !strings.Contains(r.raw, `"priority":"medium"`) {
			t.Errorf("plan entries without a priority: %s", r.raw)
		}
		if r.u.Tool == nil {
			continue
		}
		if strings.Contains(r.raw, `"terminalId"`) {
			t.Errorf("the replay names a terminal: %s", r.raw)
		}
		if strings.Contains(r.raw, "look around") {
			t.Errorf("the update_plan call repeats the plan: %s", r.raw)
		}
		for _, c := range r.u.Tool.Content {
			replayedOutput = replayedOutput || (c.Content != nil && strings.Contains(c.Content.Text, "replayed-output"))
		}
	}
	if !replayedOutput {
		t.Error("the replay lacks the command's output")
	}
	// The loaded session goes on with its history.
	srv.Enqueue(llmtest.Reply{Text: []string{"still here"}})
	if reason, err := p2.prompt(t, sid, "second question"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt after load: %q, %v", reason, err)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if !strings.Contains(jsonString(last.Messages), "remember this reply") {
		t.Errorf("the loaded session's next request lacks its history")
	}
}

// closeAndWait ends the process by closing stdin, as an editor does.
func (p *tandemProcess) closeAndWait(t *testing.T) {
	t.Helper()
	p.stdin.Close()
	select {
	case <-p.conn.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("tandem did not close its output after stdin closed")
	}
}

// findDiff returns the first diff in tool call content.
func findDiff(t *testing.T, content []sdk.ToolCallContent) *sdk.ToolCallContentDiff {
	t.Helper()
	for _, c := range content {
		if c.Diff != nil {
			return c.Diff
		}
	}
	return nil
}

// wireBefore reports whether tandem wrote a before b.
func wireBefore(ed *editor, a, b string) bool {
	ed.mu.Lock()
	defer ed.mu.Unlock()
	ia, ib := slices.Index(ed.wire, a), slices.Index(ed.wire, b)
	return ia >= 0 && ib >= 0 && ia < ib
}
