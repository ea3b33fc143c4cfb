//go:build unix

package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// The conversation loop on a terminal: messages are turns of one session,
// Tab completes slash commands, a trailing backslash continues the
// message, Ctrl-C cancels a turn and the session goes on, Ctrl-D leaves.
func TestChatOnTerminal(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	srv.Enqueue(
		llmtest.Reply{Text: []string{"Hi there."}},
		llmtest.Reply{Text: []string{"Two lines read."}},
		llmtest.Reply{Text: []string{"thinking it over"}, Hang: true},
		llmtest.Reply{Text: []string{"Back again."}},
	)
	r := startTTY(t, srv, home, nil, "chat", "--cwd", work)
	prompts := func(n int) {
		t.Helper()
		r.waitCount("› ", n)
	}
	prompts(1)
	r.send("hello\r")
	r.waitFor("Hi there.")
	prompts(2)

	r.send("/mo\t")
	r.waitFor("/mode")
	r.send(" a\t") // /mo completes to /mode (/model shares the prefix), a to ask or auto-edit
	r.send("s\t\r")

	r.waitFor("Mode set to ask.")
	prompts(3)

	r.send("line one\\\r")
	r.waitFor("… ")
	r.send("line two\r")
	r.waitFor("Two lines read.")
	if got := srv.Requests()[1].LastUserText(); got != "line one\nline two" {
		t.Errorf("multi-line message = %q", got)
	}
	prompts(4)

	r.send("take your time\r")
	r.waitFor("thinking it over")
	r.send("\x03")
	r.waitFor("cancelled")
	prompts(5)
	r.send("still there?\r")
	r.waitFor("Back again.")
	if reqs := srv.Requests(); len(reqs) != 4 || len(reqs[3].Messages) < 5 {
		t.Errorf("the session did not go on after the cancel: %d requests", len(reqs))
	}
	prompts(6)
	r.send("\x04")
	if code, shown := r.exit(); code != 0 {
		t.Errorf("Ctrl-D: exit %d\n%q", code, shown)
	}

	// The next conversation recalls the last one's messages with ↑.
	r = startTTY(t, srv, home, nil, "chat", "--cwd", work)
	r.waitFor("› ")
	r.send("\x1b[A")
	r.waitFor("still there?")
	r.send("\x03") // at the prompt, Ctrl-C leaves like Ctrl-D
	if code, shown := r.exit(); code != 0 {
		t.Errorf("Ctrl-C at the prompt: exit %d\n%q", code, shown)
	}
}

// tandem alone on a terminal opens the conversation loop.
func TestBareTandemOpensChat(t *testing.T) {
	srv := llmtest.NewServer(t)
	r := startTTY(t, srv, t.TempDir(), nil)
	r.waitFor("/help for commands")
	r.waitFor("› ")
	r.send("\x04")
	if code, shown := r.exit(); code != 0 {
		t.Errorf("exit %d\n%q", code, shown)
	}
}

// In the conversation too, a second Ctrl-C quits while the first one's
// cancel waits.
func TestChatSecondCtrlCQuits(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	stopping := testenv.FifoLines(t, filepath.Join(work, "stopping.fifo"))
	srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "run_command", Args: stubborn}}})
	r := startTTY(t, srv, home, nil, "chat", "--cwd", work, "--yes")
	r.waitFor("› ")
	r.send("wait\r")
	r.waitFor("│ started")
	r.send("\x03")
	testenv.NextLine(t, stopping, 20*time.Second, "the command's SIGTERM") // the cancel reached it; it holds on
	r.send("\x03")
	start := time.Now()
	code, shown := r.exit()
	if code != -1 || time.Since(start) > 1500*time.Millisecond {
		t.Errorf("exit %d after %s, want killed by the second Ctrl-C at once:\n%q", code, time.Since(start), shown)
	}
}
