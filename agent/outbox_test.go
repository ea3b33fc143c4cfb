package agent

import (
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/redact"
)

// slowHost records what the outbox sends, slowly, so items are still
// queued when drain is called.
type slowHost struct {
	testHost
	mu   sync.Mutex
	sent []string
}

func (h *slowHost) Send(u Update) {
	time.Sleep(2 * time.Millisecond)
	h.mu.Lock()
	defer h.mu.Unlock()
	text := string(u.Type)
	if u.Chunk != nil {
		text += ":" + u.Chunk.Text
	}
	h.sent = append(h.sent, text)
}

func (h *slowHost) got() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return strings.Join(h.sent, " ")
}

// drain returns only once all that was queued before it was sent, even
// when the goroutine is behind, and a streamed reply's held-back tail (a
// piece that could begin a secret) goes out before it returns; an idle
// outbox is drained without waiting.
func TestOutboxDrainSendsAllQueuedBefore(t *testing.T) {
	const secret = "sk-outbox-secret-1234567890"
	h := &slowHost{}
	o := startOutbox(h, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), redact.New(secret), 1<<20)
	defer o.stop()
	for _, text := range []string{"one ", "two ", "sk-outbox"} {
		o.put(outItem{op: opSend, u: &Update{Type: AgentMessageChunk, MessageID: "m1", Chunk: &ContentBlock{Type: "text", Text: text}}})
	}
	for o.queued.Load() > 0 { // handled, the tail held back
		time.Sleep(time.Millisecond)
	}
	o.drain()
	if got, want := h.got(), "agent_message_chunk:one  agent_message_chunk:two  agent_message_chunk:sk-outbox"; got != want {
		t.Fatalf("after drain sent %q, want %q (the held-back tail included)", got, want)
	}
	o.put(outItem{op: opSend, u: &Update{Type: ToolCallStarted}})
	o.drain()
	if got := h.got(); !strings.HasSuffix(got, string(ToolCallStarted)) {
		t.Fatalf("after the second drain sent %q, want the tool call last", got)
	}
	start := time.Now()
	for range 100 {
		o.drain()
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("100 drains of an idle outbox took %v", d)
	}
}
