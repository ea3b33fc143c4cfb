package acp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// The update stream as an editor sees it, at the real boundary: the built
// binary over stdio, every line schema-checked and recorded in wire order.

// streamLabel names an update of session sid for an order check: its kind,
// and the tool call it is about; "" for a message of another session or
// one that is not a session/update.
func streamLabel(m wireMsg, sid string) string {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	if m.Method != "session/update" || json.Unmarshal(m.Params, &p) != nil || p.SessionID != sid {
		return ""
	}
	u := m.update()
	kind, _ := u["sessionUpdate"].(string)
	if id, ok := u["toolCallId"].(string); ok {
		return kind + ":" + id
	}
	return kind
}

// chunkText is the text of an agent message or thought chunk ("" for
// anything else).
func chunkText(m wireMsg) string {
	u := m.update()
	if k := u["sessionUpdate"]; k != "agent_message_chunk" && k != "agent_thought_chunk" {
		return ""
	}
	c, _ := u["content"].(map[string]any)
	s, _ := c["text"].(string)
	return s
}

// isAnswer reports whether m is the answer to a session/prompt.
func isAnswer(m wireMsg) bool {
	return m.Method == "" && strings.Contains(string(m.raw), `"stopReason"`)
}

// TestStreamOrderAcrossKindsOverACP: one turn streams thoughts, text, a plan
// tool call and its plan, a command with live output, and the closing
// text; the editor gets them in the order they were produced, every chunk
// of text complete, the usage and the title too, and all of the turn
// before its answer.
func TestStreamOrderAcrossKindsOverACP(t *testing.T) {
	srv := llmtest.NewServer(t)
	thoughts := []string{"let me ", "think ", "first"}
	intro := []string{"I will ", "plan, ", "then run it."}
	outro := []string{"Both ", "done."}
	plan := `{"plan":[{"content":"run it","status":"in_progress"},{"content":"report","status":"pending"}]}`
	srv.Enqueue(
		llmtest.Reply{Reasoning: thoughts, Text: intro, ToolCalls: []llmtest.ToolCall{{ID: "p1", Name: "update_plan", Args: plan}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "run_command", Args: `{"command":"printf 'one\\n'; printf 'two\\n'"}`}}},
		llmtest.Reply{Text: outro},
	)
	srv.Titles(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"Streamed title"}} })
	c := startRaw(t, t.TempDir(), srv.BaseURL(llmtest.Anthropic), map[string]any{"_meta": map[string]any{"terminal_output": true}})
	sid := c.newSession(t, workspace(t, nil))
	from := c.count()
	if stop := c.prompt(t, sid, "plan and run"); stop != "end_turn" {
		t.Fatalf("prompt ended %q", stop)
	}
	lines := c.since(from)
	answer := slices.IndexFunc(lines, isAnswer)
	if answer < 0 {
		t.Fatal("no answer recorded")
	}
	// The produced order, each run of one label once; usage and title
	// updates are produced beside the turn (the usage once a response
	// ends, the title by a side request) and checked apart.
	var order []string
	var thought, text, output strings.Builder
	usage := false
	for _, m := range lines[:answer] {
		l := streamLabel(m, sid)
		switch l {
		case "":
			continue
		case "usage_update":
			usage = true
			continue
		case "session_info_update", "available_commands_update":
			continue
		case "agent_thought_chunk":
			thought.WriteString(chunkText(m))
		case "agent_message_chunk":
			text.WriteString(chunkText(m))
		}
		output.WriteString(termOutput(m.update()))
		if len(order) == 0 || order[len(order)-1] != l {
			order = append(order, l)
		}
	}
	want := []string{"agent_thought_chunk", "agent_message_chunk", "tool_call:p1", "tool_call_update:p1", "plan",
		"tool_call:c1", "tool_call_update:c1", "agent_message_chunk"}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("order on the wire:\n%s\nwant\n%s", strings.Join(order, " "), strings.Join(want, " "))
	}
	if got, want := thought.String(), strings.Join(thoughts, ""); got != want {
		t.Errorf("thoughts %q, want %q", got, want)
	}
	if got, want := text.String(), strings.Join(intro, "")+strings.Join(outro, ""); got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if got := output.String(); got != "one\ntwo\n" {
		t.Errorf("live output %q, want both lines once, in order", got)
	}
	if !usage {
		t.Error("no usage_update before the answer")
	}
	for _, m := range lines[answer+1:] {
		if l := streamLabel(m, sid); l != "" && l != "session_info_update" && l != "usage_update" && l != "available_commands_update" {
			t.Errorf("%s after the answer: %s", l, m.raw)
		}
	}
	// The title's side request ends after the turn or during it; either
	// way it reaches the editor once.
	c.await(t, from, "the session_info_update", func(m wireMsg) bool {
		return streamLabel(m, sid) == "session_info_update" && strings.Contains(string(m.raw), "Streamed title")
	})
}

// TestStreamCancelMidStreamOverACP: session/cancel in the middle of a long
// reply ends the prompt cancelled; what reached the editor is the reply's
// beginning in order, nothing of it comes after the answer, and the
// session answers the next prompt whole.
func TestStreamCancelMidStreamOverACP(t *testing.T) {
	srv := llmtest.NewServer(t)
	words := make([]string, 3000)
	for i := range words {
		words[i] = fmt.Sprintf("w%d ", i)
	}
	full := strings.Join(words, "")
	srv.Enqueue(llmtest.Reply{Text: words, Delay: llmtest.Duration(time.Millisecond)}, llmtest.Reply{Text: []string{"after ", "the cancel"}})
	c := startRaw(t, t.TempDir(), srv.BaseURL(llmtest.Anthropic), map[string]any{})
	sid := c.newSession(t, workspace(t, nil))
	from := c.count()
	stopped := make(chan string, 1)
	go func() { stopped <- c.prompt(t, sid, "talk at length") }()
	c.await(t, from, "the reply's 50th word", func(m wireMsg) bool { return strings.Contains(chunkText(m), "w50 ") })
	answered(t, c.peer.Notify("session/cancel", map[string]any{"sessionId": sid}))
	select {
	case stop := <-stopped:
		if stop != "cancelled" {
			t.Fatalf("cancelled prompt ended %q", stop)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the prompt did not end after session/cancel")
	}
	if stop := c.prompt(t, sid, "and now?"); stop != "end_turn" {
		t.Fatalf("the prompt after the cancel ended %q", stop)
	}
	lines := c.since(from)
	answer := slices.IndexFunc(lines, isAnswer)
	var got strings.Builder
	for _, m := range lines[:answer] {
		if streamLabel(m, sid) == "agent_message_chunk" {
			got.WriteString(chunkText(m))
		}
	}
	if !strings.HasPrefix(full, got.String()) || got.Len() == len(full) || !strings.Contains(got.String(), "w50 ") {
		t.Errorf("before the cancelled answer the editor got %.80q…, want the reply's beginning, in order", got.String())
	}
	var after strings.Builder
	for _, m := range c.since(from + answer + 1) {
		if streamLabel(m, sid) == "agent_message_chunk" {
			after.WriteString(chunkText(m))
		}
	}
	if after.String() != "after the cancel" {
		t.Errorf("after the cancelled answer the editor got %.80q, want only the next reply", after.String())
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d model requests, want the cancelled one and the next", n)
	}
}

// TestStreamKill9MidStream: tandem killed with -9 while a reply streams,
// after a tool call in the same turn; a new process loads the session and
// its replay has, in the order the editor first saw them, the earlier turn,
// every update of the killed turn up to the tool call's end, and the text
// of the reply still streaming as the editor saw it; the session then goes
// on. The log is written behind the wire, batch by batch: a batch of
// chunks is in the log file before the next one leaves (agent/outbox.go,
// serve), so a kill landing between a batch's Send and its write(2) loses
// that batch, the last notification the editor saw, and nothing before
// it. The test allows exactly that and no more.
func TestStreamKill9MidStream(t *testing.T) {
	halfAnswer := make([]string, 30)
	for i := range halfAnswer {
		halfAnswer[i] = fmt.Sprintf("h%d ", i)
	}
	srv := llmtest.NewServer(t)
	srv.Enqueue(
		llmtest.Reply{Text: []string{"first ", "answer"}},
		llmtest.Reply{Text: []string{"checking "}, ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "run_command", Args: `{"command":"echo ran"}`}}},
		// Paced, so the reply reaches the editor in several notifications.
		llmtest.Reply{Text: halfAnswer, Delay: llmtest.Duration(2 * time.Millisecond), Hang: true},
	)
	streaming := strings.Join(halfAnswer, "")
	home, ws := t.TempDir(), workspace(t, nil)
	url := srv.BaseURL(llmtest.Anthropic)
	c := startRaw(t, home, url, map[string]any{})
	sid := c.newSession(t, ws)
	if stop := c.prompt(t, sid, "first"); stop != "end_turn" {
		t.Fatalf("first prompt ended %q", stop)
	}
	from := c.count()
	go func() {
		var r map[string]any
		_ = c.peer.Call("session/prompt", map[string]any{"sessionId": sid,
			"prompt": []any{map[string]any{"type": "text", "text": "second"}}}, &r) // dies under it
	}()
	var streamed strings.Builder // chunks may leave joined: gather them
	var last string              // the last notification's text
	c.await(t, from, "the streaming reply's last chunk", func(m wireMsg) bool {
		if text := chunkText(m); text != "" {
			streamed.WriteString(text)
			last = text
		}
		return strings.HasSuffix(streamed.String(), streaming)
	})
	c.kill9(t)
	var seen []string // the killed turn's updates as the editor saw them, to the tool call's end
	for _, m := range c.since(from) {
		l := streamLabel(m, sid)
		if l == "" || l == "usage_update" || l == "available_commands_update" || l == "session_info_update" {
			continue
		}
		if len(seen) == 0 || seen[len(seen)-1] != l {
			seen = append(seen, l)
		}
		if l == "tool_call_update:c1" && m.update()["status"] == "completed" {
			break
		}
	}

	r := startRaw(t, home, url, map[string]any{})
	replayFrom := r.count()
	answered(t, r.peer.Call("session/load", map[string]any{"sessionId": sid, "cwd": ws, "mcpServers": []any{}}, nil))
	var replay []string
	var text strings.Builder
	for _, m := range r.since(replayFrom) {
		l := streamLabel(m, sid)
		if l == "" || l == "usage_update" || l == "available_commands_update" || l == "session_info_update" || l == "user_message_chunk" {
			continue
		}
		text.WriteString(chunkText(m))
		if len(replay) == 0 || replay[len(replay)-1] != l {
			replay = append(replay, l)
		}
	}
	// The earlier turn, then the killed one: its text before the tool
	// call, and the streaming reply as the editor saw it, short of at
	// most its last notification.
	const before = "first answerchecking "
	got, cut := strings.CutPrefix(text.String(), before)
	if !cut || !strings.HasPrefix(streaming, got) || len(streaming)-len(got) > len(last) {
		t.Errorf("replayed text %q, want %q then %q, short of at most the last notification's %q", text.String(), before, streaming, last)
	}
	if i := slices.Index(replay, seen[0]); i < 0 || len(replay) < i+len(seen) || !slices.Equal(replay[i:i+len(seen)], seen) {
		t.Errorf("replay\n%s\ndoes not hold what the editor saw of the killed turn, in order:\n%s", strings.Join(replay, " "), strings.Join(seen, " "))
	}
	srv.Enqueue(llmtest.Reply{Text: []string{"after the crash"}})
	if stop := r.prompt(t, sid, "third"); stop != "end_turn" {
		t.Fatalf("prompt after the load ended %q", stop)
	}
	reqs := srv.Requests()
	checkPaired(t, reqs[len(reqs)-1].Messages)
}

// TestStreamCloseMidStream: the editor closes tandem's stdin while a reply
// streams; tandem ends the turn and exits, and a new process replays
// exactly the text that reached the editor, nothing lost and nothing
// added.
func TestStreamCloseMidStream(t *testing.T) {
	srv := llmtest.NewServer(t)
	words := make([]string, 3000)
	for i := range words {
		words[i] = fmt.Sprintf("w%d ", i)
	}
	srv.Enqueue(llmtest.Reply{Text: words, Delay: llmtest.Duration(time.Millisecond)})
	home, ws := t.TempDir(), workspace(t, nil)
	url := srv.BaseURL(llmtest.Anthropic)
	c := startRaw(t, home, url, map[string]any{})
	sid := c.newSession(t, ws)
	from := c.count()
	go func() {
		var r map[string]any
		_ = c.peer.Call("session/prompt", map[string]any{"sessionId": sid,
			"prompt": []any{map[string]any{"type": "text", "text": "talk at length"}}}, &r) // ends with the process
	}()
	c.await(t, from, "the reply's 50th word", func(m wireMsg) bool { return strings.Contains(chunkText(m), "w50 ") })
	c.stop() // stdin closed; tandem exits
	var seen strings.Builder
	for _, m := range c.since(from) {
		if streamLabel(m, sid) == "agent_message_chunk" {
			seen.WriteString(chunkText(m))
		}
	}

	r := startRaw(t, home, url, map[string]any{})
	replayFrom := r.count()
	answered(t, r.peer.Call("session/load", map[string]any{"sessionId": sid, "cwd": ws, "mcpServers": []any{}}, nil))
	var replayed strings.Builder
	for _, m := range r.since(replayFrom) {
		if streamLabel(m, sid) == "agent_message_chunk" {
			replayed.WriteString(chunkText(m))
		}
	}
	if !strings.HasPrefix(strings.Join(words, ""), seen.String()) || !strings.Contains(seen.String(), "w50 ") {
		t.Fatalf("the editor saw %.80q…, want the reply's beginning", seen.String())
	}
	if replayed.String() != seen.String() {
		t.Errorf("replayed %d bytes of text (%.60q…), the editor saw %d (%.60q…): want the same", replayed.Len(), replayed.String(), seen.Len(), seen.String())
	}
}
