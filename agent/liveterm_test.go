package agent

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/redact"
)

// termHost records the live terminal output it is sent, piece by piece.
type termHost struct {
	testHost
	pieces []string
	exits  int
}

func (h *termHost) Send(u Update) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if u.Term != nil && u.Term.Output != "" {
		h.pieces = append(h.pieces, u.Term.Output)
	}
}

func (h *termHost) got() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.pieces...)
}

// A live terminal's output leaves piece by piece through the FIFO: a
// secret printed in two pieces, each sent as soon as it arrived, is still
// hidden (the first half waits for the second); a UTF-8 sequence cut
// between two pieces arrives whole; past the cap the output stops until
// the end, which sends the tail the result kept after its marker.
func TestLiveTermPieces(t *testing.T) {
	const secret = "sk-liveterm-SECRET-0123456789"
	h := &termHost{}
	o := startOutbox(h, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), redact.New(secret), 1<<20)
	defer o.stop()
	red := redact.New(secret)
	lt := &liveTerm{id: "c1", out: o, red: red.Stream(), limit: 64}
	step := func(p string) {
		lt.write([]byte(p))
		o.drain() // the piece was handled before the next comes
	}
	step("one\n")
	step("key=" + secret[:10])
	step(secret[10:] + "\n")
	step("caf\xc3")
	step("\xa9\n")
	pieces := h.got()
	joined := strings.Join(pieces, "")
	if strings.Contains(joined, secret[:10]) || strings.Contains(joined, secret[10:]) || !strings.Contains(joined, "key=[redacted]\n") {
		t.Errorf("the split secret: %q", pieces)
	}
	if !strings.Contains(joined, "café\n") || len(pieces) < 4 {
		t.Errorf("pieces %q: want café whole, in several updates", pieces)
	}

	long := strings.Repeat("x", 100)
	lt.write([]byte(long))
	head := "one\nkey=" + secret + "\ncafé\n" + long
	head = head[:64]
	lt.finish(CommandResult{Output: head + "\n\n[... 50 bytes of output omitted ...]\n\nTAIL\n", Truncated: true})
	o.drain()
	joined = strings.Join(h.got(), "")
	if want := "[redacted]"; !strings.HasSuffix(joined, "x\n\n[... 50 bytes of output omitted ...]\n\nTAIL\n") || strings.Count(joined, "x") != 64-len("one\nkey=\ncafé\n")-len(secret) || !strings.Contains(joined, want) {
		t.Errorf("capped output: %q", joined)
	}
	if exit := lt.ran(); exit == nil || exit.Code != 0 {
		t.Errorf("exit = %+v", exit)
	}
}

// Output that piled up leaves in updates of at most maxCoalesced bytes, so
// a frame stays under the connection's cap; nothing is lost.
func TestLiveTermSplitsLargePieces(t *testing.T) {
	h := &termHost{}
	o := startOutbox(h, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), nil, 1<<20)
	defer o.stop()
	lt := &liveTerm{id: "c1", out: o}
	big := strings.Repeat("é", 10_000) // 20,000 bytes, two per rune
	lt.write([]byte(big))
	lt.finish(CommandResult{Output: big})
	o.drain()
	pieces := h.got()
	for _, p := range pieces {
		if len(p) > maxCoalesced {
			t.Errorf("a piece of %d bytes", len(p))
		}
	}
	if got := strings.Join(pieces, ""); got != big || len(pieces) < 3 {
		t.Errorf("%d pieces, %d bytes; want all %d bytes in at least 3", len(pieces), len(got), len(big))
	}
}

// liveTestHost is a test host whose editor shows commands' output live; it
// signals the first output.
type liveTestHost struct {
	testHost
	first chan string
}

func (h *liveTestHost) LiveCommandOutput() bool { return true }

func (h *liveTestHost) Send(u Update) {
	h.testHost.Send(u)
	if u.Term != nil && u.Term.Output != "" {
		select {
		case h.first <- u.Term.Output:
		default:
		}
	}
}

// Cancelling a turn while its command streams kills the command and ends
// the call failed with the terminal's exit and why beside it; the log
// keeps the call's end as text, naming no terminal.
func TestLiveTermCancelled(t *testing.T) {
	f := newFixture(t)
	dir := writeTree(t, nil)
	h := &liveTestHost{first: make(chan string, 1)}
	s, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: dir, Mode: ModeCode, Host: h})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f.srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "run_command", `{"command":"mkfifo f && echo started && read x < f"}`)}})
	done := make(chan StopReason, 1)
	go func() {
		r, _ := s.Prompt(context.Background(), prompt("run"))
		done <- r
	}()
	if out := <-h.first; !strings.Contains(out, "started") {
		t.Fatalf("first output %q", out)
	}
	s.Cancel()
	if r := <-done; r != StopCancelled {
		t.Fatalf("stop = %q", r)
	}
	var last Update
	for _, u := range h.snapshot() {
		if u.Tool != nil && u.Tool.ID == "c1" && u.Tool.Status == ToolFailed {
			last = u
		}
	}
	if last.Term == nil || last.Term.Exit == nil || len(last.Tool.Content) != 2 || last.Tool.Content[0].Type != "terminal" ||
		!strings.Contains(last.Tool.Content[1].Content.Text, "Cancelled") {
		t.Fatalf("the call's end: %+v %+v", last.Tool, last.Term)
	}
	h2 := &testHost{}
	s.Close()
	s2, err := New(f.agent.cfg).LoadSession(context.Background(), SessionOptions{ID: s.ID(), Host: h2})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	for _, u := range h2.snapshot() {
		if u.Term != nil || u.Tool != nil && len(u.Tool.Content) > 0 && u.Tool.Content[0].Type == "terminal" {
			t.Errorf("the replay names a terminal: %+v", u)
		}
	}
}
