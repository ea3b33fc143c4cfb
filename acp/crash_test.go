package acp

import (
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// kill9 ends the process the way a crash does: no flush, no goodbye.
func (p *tandemProcess) kill9(t *testing.T) {
	t.Helper()
	p.killed.Store(true)
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.conn.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("tandem still writing after kill -9")
	}
}

// checkPaired fails unless every tool_use in msgs is answered by a
// tool_result in the next message and the roles alternate.
func checkPaired(t *testing.T, msgs []llm.Message) {
	t.Helper()
	for i, m := range msgs {
		if i > 0 && msgs[i-1].Role == m.Role {
			t.Errorf("messages %d and %d are both %s", i-1, i, m.Role)
		}
		for _, p := range m.Content {
			if p.Type != llm.PartToolUse {
				continue
			}
			found := false
			if i+1 < len(msgs) {
				for _, r := range msgs[i+1].Content {
					found = found || r.Type == llm.PartToolResult && r.ToolCallID == p.ToolCallID
				}
			}
			if !found {
				t.Errorf("tool call %s (%s) has no result in the next message", p.ToolCallID, p.ToolName)
			}
		}
	}
}

// TestKill9 kills tandem at three instants of a turn, loads the session in a
// fresh process and checks the replay and the next request.
func TestKill9(t *testing.T) {
	tests := []struct {
		name  string
		mode  sdk.SessionModeId
		reply llmtest.Reply
		// arm sets the editor up and returns a channel closed at the
		// instant to kill.
		arm func(ed *editor) <-chan struct{}
		// ran, when set, is a named pipe in the workspace the tool writes
		// a line to once it acts: the kill waits for that line too. An
		// update the editor sees may not be in the log yet (it is written
		// behind the wire); the tool call is, once the session acts on the
		// world.
		ran string
		// wantFailed is whether the replay must end a tool call failed.
		wantFailed bool
	}{
		{
			name:  "during streaming",
			reply: llmtest.Reply{Text: []string{"half an answer", "that never", "finishes"}, Hang: true},
			arm: func(ed *editor) <-chan struct{} {
				return onUpdate(ed, func(r recorded) bool { return r.u.Type == agent.AgentMessageChunk })
			},
		},
		{
			name:  "during a running command",
			mode:  "full-auto",
			reply: llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: `{"command":"echo ran > ran.fifo && sleep 30"}`}}},
			arm: func(ed *editor) <-chan struct{} {
				return onUpdate(ed, func(r recorded) bool { return r.u.Tool != nil && r.u.Tool.Status == agent.ToolInProgress })
			},
			ran:        "ran.fifo",
			wantFailed: true,
		},
		{
			name:  "during a pending permission",
			reply: llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"new.txt","content":"x"}`}}},
			arm: func(ed *editor) <-chan struct{} {
				ed.holdPermission = true
				ed.asked = make(chan struct{}, 1)
				c := make(chan struct{})
				go func() { <-ed.asked; close(c) }()
				return c
			},
			wantFailed: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			home, dir := t.TempDir(), workspace(t, nil)
			srv.Enqueue(llmtest.Reply{Text: []string{"first answer"}}, tt.reply)

			ed1 := newEditor(t)
			p1 := startTandem(t, srv, home, ed1)
			p1.initialize(t, true, false)
			sid := p1.newSession(t, dir)
			if tt.mode != "" {
				if _, err := p1.conn.SetSessionMode(ctxT(t), sdk.SetSessionModeRequest{SessionId: sid, ModeId: tt.mode}); err != nil {
					t.Fatal(err)
				}
			}
			if r, err := p1.prompt(t, sid, "first"); err != nil || r != sdk.StopReasonEndTurn {
				t.Fatalf("first prompt: %q, %v", r, err)
			}
			var ran <-chan string
			if tt.ran != "" {
				ran = testenv.FifoLines(t, filepath.Join(dir, tt.ran))
			}
			ed1.mu.Lock()
			now := tt.arm(ed1) // only now: the first turn streams too
			ed1.mu.Unlock()
			go p1.prompt(t, sid, "second") // the process dies under it
			select {
			case <-now:
			case <-time.After(15 * time.Second):
				t.Fatal("the turn never reached the instant to kill")
			}
			if ran != nil {
				testenv.NextLine(t, ran, 15*time.Second, "the tool's line in "+tt.ran)
			}
			p1.kill9(t)

			ed2 := newEditor(t)
			p2 := startTandem(t, srv, home, ed2)
			p2.initialize(t, true, false)
			if _, err := p2.conn.LoadSession(ctxT(t), sdk.LoadSessionRequest{SessionId: sid, Cwd: dir, McpServers: []sdk.McpServer{}}); err != nil {
				t.Fatalf("session/load: %v", err)
			}
			if got := ed2.agentText(sid); !strings.Contains(got, "first answer") {
				t.Errorf("replay lost the completed turn: %q", got)
			}
			if tt.wantFailed {
				var last *recorded
				for _, r := range ed2.sessionUpdates(sid) {
					if r.u.Tool != nil {
						last = &r
					}
				}
				if last == nil || last.u.Tool.Status != agent.ToolFailed || !strings.Contains(last.raw, "interrupted: tandem stopped") {
					t.Errorf("replay does not end the interrupted call failed: %+v", last)
				}
			}
			srv.Enqueue(llmtest.Reply{Text: []string{"after the crash"}})
			if r, err := p2.prompt(t, sid, "third"); err != nil || r != sdk.StopReasonEndTurn {
				t.Fatalf("prompt after load: %q, %v (%d requests)", r, err, len(srv.Requests()))
			}
			reqs := srv.Requests()
			next := reqs[len(reqs)-1]
			checkPaired(t, next.Messages)
			if tt.wantFailed && !strings.Contains(jsonString(next.Messages), "interrupted: tandem stopped") {
				t.Errorf("the interrupted call's result did not reach the model")
			}
		})
	}
}

// onUpdate returns a channel closed at the first update match accepts.
func onUpdate(ed *editor, match func(recorded) bool) <-chan struct{} {
	c := make(chan struct{})
	var once sync.Once
	ed.onUpdate = func(_ string, r recorded) {
		if match(r) {
			once.Do(func() { close(c) })
		}
	}
	return c
}
