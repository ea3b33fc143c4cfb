package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// editScript is a turn that edits notes.txt and answers.
func editScript(srv *llmtest.Server, work string) {
	os.WriteFile(filepath.Join(work, "notes.txt"), []byte("draft\n"), 0o644)
	srv.Enqueue(
		llmtest.Reply{Text: []string{"Editing.\n"}, ToolCalls: []llmtest.ToolCall{{ID: "e1", Name: "edit_file", Args: `{"path":"notes.txt","old_string":"draft","new_string":"final"}`}}},
		llmtest.Reply{Text: []string{"Done", "."}},
	)
}

func TestRunOutputJSON(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	editScript(srv, work)
	out, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work, "--yes", "--output-format", "json", "finish")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Type, SessionID, StopReason, Answer string
		ExitCode                            int
		ToolCalls                           []struct{ ID, Title, Kind, Status string }
		Usage                               struct{ Requests, InputTokens, OutputTokens int }
	}
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&res); err != nil || dec.More() {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if res.Type != "result" || res.SessionID == "" || res.StopReason != "end_turn" || res.ExitCode != 0 || res.Answer != "Editing.\nDone." {
		t.Errorf("result = %+v", res)
	}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].Title != "Edit notes.txt" || res.ToolCalls[0].Status != "completed" || res.ToolCalls[0].Kind != "edit" {
		t.Errorf("tool calls = %+v", res.ToolCalls)
	}
	if res.Usage.Requests != 2 || res.Usage.InputTokens != 20 || res.Usage.OutputTokens != 10 {
		t.Errorf("usage = %+v", res.Usage)
	}
	if errOut != "" {
		t.Errorf("stderr is not quiet in json mode: %q", errOut)
	}

	// A failure is in the object too, with its exit code.
	srv.Enqueue(llmtest.Reply{Text: []string{"cut"}, Stop: "max_tokens"})
	out, _, code = tandem(t, srv, home, "", "run", "--cwd", work, "--output-format", "json", "x")
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitError || res.ExitCode != exitError || res.StopReason != "max_tokens" {
		t.Errorf("max_tokens: exit %d, %s", code, out)
	}
}

// Every stream-json line is one of the documented events (docs/cli.md);
// updates are the agent's Update JSON, exactly what ACP carries.
func TestRunOutputStreamJSON(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	editScript(srv, work)
	out, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work, "--allow", "edit_file(notes.txt)", "--output-format", "stream-json", "finish")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var types []string
	var answer strings.Builder
	for i, l := range lines {
		typ, err := validateEvent([]byte(l))
		if err != nil {
			t.Fatalf("line %d %s: %v", i+1, l, err)
		}
		types = append(types, typ)
		var e struct{ Update agent.Update }
		if typ == "update" && json.Unmarshal([]byte(l), &e) == nil && e.Update.Type == agent.AgentMessageChunk {
			answer.WriteString(e.Update.Chunk.Text)
		}
	}
	if types[0] != "session" || types[len(types)-1] != "result" || !slices.Contains(types, "permission") {
		t.Errorf("event types %v: want session first, a permission, result last", types)
	}
	if answer.String() != "Editing.\nDone." {
		t.Errorf("answer from chunks = %q", answer.String())
	}
	if !strings.Contains(out, `"by":"--allow edit_file(notes.txt)"`) {
		t.Errorf("the permission event does not say which rule allowed it:\n%s", out)
	}
}

// validateEvent checks one stream-json line against the documented shape
// and returns its type.
func validateEvent(line []byte) (string, error) {
	var e map[string]json.RawMessage
	if err := json.Unmarshal(line, &e); err != nil {
		return "", err
	}
	var typ, id string
	json.Unmarshal(e["type"], &typ)
	if json.Unmarshal(e["sessionId"], &id); id == "" {
		return typ, fmt.Errorf("no sessionId")
	}
	need := map[string][]string{
		"session":    {"cwd", "mode", "model"},
		"update":     {"update"},
		"permission": {"toolCallId", "title", "outcome", "by"},
		"result":     {"exitCode", "answer", "toolCalls", "usage"},
	}[typ]
	if need == nil {
		return typ, fmt.Errorf("unknown event type %q", typ)
	}
	for _, k := range need {
		if _, ok := e[k]; !ok {
			return typ, fmt.Errorf("%s event without %q", typ, k)
		}
	}
	switch typ {
	case "update":
		var u agent.Update
		if err := json.Unmarshal(e["update"], &u); err != nil {
			return typ, fmt.Errorf("update is not an agent Update: %w", err)
		}
		again, _ := json.Marshal(u)
		var a, b any
		json.Unmarshal(again, &a)
		json.Unmarshal(e["update"], &b)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			return typ, fmt.Errorf("update does not round-trip: %s", again)
		}
	case "permission":
		var o string
		json.Unmarshal(e["outcome"], &o)
		if o != "allowed" && o != "rejected" && o != "cannot_ask" {
			return typ, fmt.Errorf("outcome %q", o)
		}
	}
	return typ, nil
}

// Text output shows a command's last lines under its status line and the
// plan as a checklist, once per change.
func TestRunTextShowsCommandTailAndPlan(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	plan := `{"plan":[{"content":"look","status":"completed"},{"content":"fix","status":"in_progress"},{"content":"test","status":"pending"}]}`
	srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "update_plan", Args: plan}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "update_plan", Args: plan}}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"seq 1 9"}`}}},
		llmtest.Reply{Text: []string{"ok"}},
	)
	_, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work, "--yes", "go")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "Plan:\n  [x] look\n  [~] fix\n  [ ] test\n"
	if strings.Count(errOut, want) != 1 {
		t.Errorf("want the plan once as a checklist:\n%s", errOut)
	}
	if !strings.Contains(errOut, "✓ Run `seq 1 9`\n  │ 5\n  │ 6\n  │ 7\n  │ 8\n  │ 9\n") || strings.Contains(errOut, "│ 4") {
		t.Errorf("want the command's last five lines under its status:\n%s", errOut)
	}
}
