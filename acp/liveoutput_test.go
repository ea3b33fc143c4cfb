package acp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// liveKey is the provider key of the live output tests: the redactor
// knows it, and the command prints it.
const liveKey = "sk-ant-livetest-0123456789abcdefXYZ"

// liveScript answers a prompt with one run_command of command, then "ran".
func liveScript(command string) func(*llmtest.Request) llmtest.Reply {
	return func(r *llmtest.Request) llmtest.Reply {
		last := r.Messages[len(r.Messages)-1]
		if last.Content[0].Type == llm.PartToolResult {
			return llmtest.Reply{Text: []string{"ran"}}
		}
		args, _ := json.Marshal(map[string]string{"command": command})
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "cmd1", Name: "run_command", Args: string(args)}}}
	}
}

// TestLiveCommandOutputRawACP runs a command tandem runs itself for a
// client that sent clientCapabilities._meta.terminal_output: the
// tool_call announces the terminal (terminal content, terminal_info), the
// output arrives in tool_call_updates' terminal_output while the command
// still runs (it prints, then waits on a fifo the test writes only after
// seeing that output), the provider key it prints is redacted, and the
// last update carries terminal_exit. session/load replays the output as
// text, naming no terminal. A client without the capability gets
// none of the _meta and the output as text, as before. Every message is
// checked against the schema.
func TestLiveCommandOutputRawACP(t *testing.T) {
	home := t.TempDir()
	ws := workspace(t, nil)
	fifo := filepath.Join(ws, "go.fifo")
	// The key is printed in two parts, so the command line itself never holds it.
	command := fmt.Sprintf("mkfifo go.fifo && printf 'first line\\n' && read x < go.fifo && printf 'key=%%s%%s\\n' '%s' '%s' && echo end",
		liveKey[:12], liveKey[12:])
	srv := llmtest.NewServer(t)
	srv.Handle(liveScript(command))
	url := srv.BaseURL(llmtest.Anthropic)
	caps := map[string]any{"fs": map[string]bool{"readTextFile": false, "writeTextFile": false}, "terminal": false,
		"_meta": map[string]any{"terminal_output": true}}
	c := startRaw(t, home, url, caps, "ANTHROPIC_API_KEY="+liveKey)
	sid := c.newSession(t, ws)

	stopped := make(chan string, 1)
	go func() { stopped <- c.prompt(t, sid, "run it") }()
	first := c.await(t, 0, "the command's first output", func(m wireMsg) bool {
		return strings.Contains(termOutput(m.update()), "first line")
	})
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if stop := <-stopped; stop != "end_turn" {
		t.Fatalf("prompt ended %q", stop)
	}

	var announced, exited bool
	var pieces []string
	for i, m := range c.since(0) {
		if strings.Contains(string(m.raw), liveKey) {
			t.Errorf("the key left tandem: %s", m.raw)
		}
		u := m.update()
		if u == nil || u["toolCallId"] != "cmd1" {
			continue
		}
		mt := meta(u)
		switch {
		case u["sessionUpdate"] == "tool_call":
			info, _ := mt["terminal_info"].(map[string]any)
			content, _ := json.Marshal(u["content"])
			announced = info["terminal_id"] == "cmd1" && string(content) == `[{"terminalId":"cmd1","type":"terminal"}]`
			if !announced {
				t.Errorf("tool_call does not announce the terminal: %s", m.raw)
			}
		case mt["terminal_output"] != nil:
			if exited {
				t.Errorf("output after the exit: %s", m.raw)
			}
			if len(u) != 3 { // sessionUpdate, toolCallId, _meta
				t.Errorf("an output update carries more than the output: %s", m.raw)
			}
			pieces = append(pieces, termOutput(u))
			if i > first && len(pieces) == 1 {
				t.Errorf("the first output came at message %d, after the one awaited (%d)", i, first)
			}
		case mt["terminal_exit"] != nil:
			exit, _ := mt["terminal_exit"].(map[string]any)
			if exit["terminal_id"] != "cmd1" || exit["exit_code"] != float64(0) || exit["signal"] != nil || u["status"] != "completed" {
				t.Errorf("exit update: %s", m.raw)
			}
			exited = true
		}
	}
	got := strings.Join(pieces, "")
	if !announced || !exited || len(pieces) < 2 || !strings.HasPrefix(got, "first line\nkey=") || !strings.HasSuffix(got, "\nend\n") {
		t.Errorf("announced %v, exited %v, output in %d pieces: %q", announced, exited, len(pieces), got)
	}

	// A replay names no terminal (none exists then) and shows the output as text.
	c.stop()
	r := startRaw(t, home, url, caps, "ANTHROPIC_API_KEY="+liveKey)
	answered(t, r.peer.Call("session/load", map[string]any{"sessionId": sid, "cwd": ws, "mcpServers": []any{}}, nil))
	var replayedText bool
	for _, m := range r.since(0) {
		if strings.Contains(string(m.raw), "terminal") || strings.Contains(string(m.raw), liveKey) {
			t.Errorf("the replay shows a terminal or the key: %s", m.raw)
		}
		u := m.update()
		replayedText = replayedText || u["toolCallId"] == "cmd1" && u["status"] == "completed" && strings.Contains(string(m.raw), `first line\nkey=`)
	}
	if !replayedText {
		t.Error("the replay lacks the command's output as text")
	}

	// A client without the capability sees the output as text, at the end.
	plain := startRaw(t, t.TempDir(), url, map[string]any{"terminal": false})
	srv.Handle(liveScript("printf 'plain output\\n'"))
	psid := plain.newSession(t, workspace(t, nil))
	if stop := plain.prompt(t, psid, "run it"); stop != "end_turn" {
		t.Fatalf("plain prompt ended %q", stop)
	}
	var text bool
	for _, m := range plain.since(0) {
		if strings.Contains(string(m.raw), "terminal_") || strings.Contains(string(m.raw), `"type":"terminal"`) {
			t.Errorf("a client without terminal_output got a live terminal: %s", m.raw)
		}
		text = text || m.update()["status"] == "completed" && strings.Contains(string(m.raw), "plain output")
	}
	if !text {
		t.Error("the plain client never got the output as text")
	}
}

// termOutput is an update's terminal_output data, "" if none.
func termOutput(u map[string]any) string {
	o, _ := meta(u)["terminal_output"].(map[string]any)
	s, _ := o["data"].(string)
	return s
}
