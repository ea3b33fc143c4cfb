package acp

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowWriter records writes, taking a little time for each, like a client
// that reads slowly.
type slowWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *slowWriter) Write(p []byte) (int, error) {
	time.Sleep(50 * time.Microsecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *slowWriter) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Split(strings.TrimSuffix(s.buf.String(), "\n"), "\n")
}

func TestOutboxOrderAndFlush(t *testing.T) {
	out := &slowWriter{}
	o := newOutbox(newWire(out, slog.New(slog.DiscardHandler)))
	// Updates queued before the session has its id wait for start.
	o.push([]byte(`{"n":0}`))
	o.start(context.Background(), "s_1")
	const n = 300
	for i := 1; i < n; i++ {
		o.push(fmt.Appendf(nil, `{"n":%d}`, i))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := o.flush(ctx); err != nil {
		t.Fatal(err)
	}
	// flush returned: every update queued before it is on the wire, in order.
	lines := out.lines()
	if len(lines) != n {
		t.Fatalf("%d lines written before flush returned, want %d", len(lines), n)
	}
	for i, l := range lines {
		want := fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s_1","update":{"n":%d}}}`, i)
		if l != want {
			t.Fatalf("line %d: %s, want %s", i, l, want)
		}
	}
	o.close()
	o.wait(time.Second)
	o.push([]byte(`{"n":"late"}`))
	if err := o.flush(ctx); err != nil {
		t.Errorf("flush after close with nothing pending: %v", err)
	}
	if got := len(out.lines()); got != n {
		t.Errorf("an update pushed after close was written")
	}
}

func TestOutboxFlushHonoursContext(t *testing.T) {
	o := newOutbox(newWire(&slowWriter{}, slog.New(slog.DiscardHandler)))
	o.push([]byte(`{}`)) // never started: nothing will write it
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := o.flush(ctx); err == nil {
		t.Error("flush of a stream that never starts returned nil")
	}
}
