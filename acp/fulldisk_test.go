package acp

import (
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestFullDisk runs tandem with its sessions on a small file system that
// fills up mid-session: the editor is told once, the session goes on, and
// once there is room again the log catches up, so that a fresh process's
// session/load replays exactly what the editor was sent.
func TestFullDisk(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, dir := t.TempDir(), workspace(t, map[string]string{"notes.txt": "a note\n"})
	sessions := filepath.Join(home, "sessions")
	testenv.SmallDisk(t, sessions, 256<<10)
	big := strings.Repeat("a long answer that fills the disk ", 600) // ~20 KB
	srv.Enqueue(
		llmtest.Reply{Text: []string{"first answer"}},
		llmtest.Reply{Text: []string{"reading"}, ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"notes.txt"}`}}},
		llmtest.Reply{Text: []string{big}},
		llmtest.Reply{Text: []string{"still full"}},
		llmtest.Reply{Text: []string{"room again"}},
	)

	ed1 := newEditor(t)
	p1 := startTandem(t, srv, home, ed1)
	p1.initialize(t, true, false)
	sid := p1.newSession(t, dir)
	prompt := func(text string) {
		t.Helper()
		if r, err := p1.prompt(t, sid, text); err != nil || r != sdk.StopReasonEndTurn {
			t.Fatalf("prompt %q: %q, %v", text, r, err)
		}
	}
	prompt("first")
	free := testenv.FillDisk(t, sessions)
	prompt("second") // a tool call and a reply bigger than any room left
	prompt("third")
	if got := strings.Count(ed1.agentText(sid), "could not save the session: disk full"); got != 1 {
		t.Errorf("the editor was told of the full disk %d times, want once:\n%s", got, ed1.agentText(sid))
	}
	free()
	prompt("fourth")
	if !strings.Contains(ed1.agentText(sid), "saved again") {
		t.Errorf("the editor was not told the session is saved again:\n%s", ed1.agentText(sid))
	}
	p1.closeAndWait(t)

	ed2 := newEditor(t)
	p2 := startTandem(t, srv, home, ed2)
	p2.initialize(t, true, false)
	if _, err := p2.conn.LoadSession(ctxT(t), sdk.LoadSessionRequest{SessionId: sid, Cwd: dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	live, replay := loggedView(ed1.sessionUpdates(sid)), loggedView(ed2.sessionUpdates(sid))
	if strings.Join(live, "\n") != strings.Join(replay, "\n") {
		t.Errorf("the replay differs from what the editor was sent\nsent:\n%s\nreplayed:\n%s", strings.Join(live, "\n"), strings.Join(replay, "\n"))
	}
	if strings.Contains(p2.stderr.String(), "skipped") {
		t.Errorf("loading skipped records:\n%s", p2.stderr.String())
	}
}

// loggedView is what of a session's updates its log keeps, one line each:
// the user's prompt (logged, never sent) and what is sent only live are
// left out, and consecutive chunks of one message are joined, as the log
// joins them.
func loggedView(rs []recorded) []string {
	var out []string
	var text strings.Builder
	var textOf string
	end := func() {
		if textOf != "" {
			out = append(out, textOf+" "+text.String())
			text.Reset()
			textOf = ""
		}
	}
	for _, r := range rs {
		switch r.kind {
		case "user_message_chunk", "session_info_update", "usage_update", "available_commands_update", "config_option_update", "current_mode_update":
			continue
		case "agent_message_chunk", "agent_thought_chunk":
			if r.u.Chunk != nil && r.u.Chunk.Type == "text" {
				if of := r.kind + " " + r.u.MessageID; of != textOf {
					end()
					textOf = of
				}
				text.WriteString(r.u.Chunk.Text)
				continue
			}
		}
		end()
		out = append(out, r.raw)
	}
	end()
	return out
}
