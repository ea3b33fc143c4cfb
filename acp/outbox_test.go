package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// recorder is the connection as the outbox sees it, taking a little time
// for each notification like a client that reads slowly; gate, when set,
// holds every notification until it is closed.
type recorder struct {
	mu   sync.Mutex
	got  []string
	gate chan struct{}
}

func (r *recorder) Notify(ctx context.Context, method string, params any) error {
	if r.gate != nil {
		select {
		case <-r.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	time.Sleep(50 * time.Microsecond)
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, method+" "+string(b))
	return nil
}

func (r *recorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

func TestOutboxOrderAndFlush(t *testing.T) {
	rec := &recorder{}
	o := newOutbox(rec)
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
	// flush returned: every update queued before it was handed over, in order.
	lines := rec.lines()
	if len(lines) != n {
		t.Fatalf("%d updates sent before flush returned, want %d", len(lines), n)
	}
	for i, l := range lines {
		want := fmt.Sprintf(`session/update {"sessionId":"s_1","update":{"n":%d}}`, i)
		if l != want {
			t.Fatalf("update %d: %s, want %s", i, l, want)
		}
	}
	o.close()
	o.wait(time.Second)
	o.push([]byte(`{"n":"late"}`))
	if err := o.flush(ctx); err != nil {
		t.Errorf("flush after close with nothing pending: %v", err)
	}
	if got := len(rec.lines()); got != n {
		t.Errorf("an update pushed after close was sent")
	}
}

func TestOutboxFlushHonoursContext(t *testing.T) {
	o := newOutbox(&recorder{})
	o.push([]byte(`{}`)) // never started: nothing will send it
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := o.flush(ctx); err == nil {
		t.Error("flush of a stream that never starts returned nil")
	}
}

// TestOutboxBounded: with a client that does not read, push blocks once the
// queue is full instead of growing it, and goes on when the client reads.
func TestOutboxBounded(t *testing.T) {
	rec := &recorder{gate: make(chan struct{})}
	o := newOutbox(rec)
	o.start(context.Background(), "s")
	var pushed atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 3 * maxQueuedUpdates {
			o.push([]byte(`{}`))
			pushed.Add(1)
		}
	}()
	time.Sleep(100 * time.Millisecond)
	// One update is with the stalled writer, one batch was taken by it, one
	// queue is full.
	if got := pushed.Load(); got > 2*maxQueuedUpdates+1 {
		t.Errorf("%d updates queued for a client that does not read", got)
	}
	select {
	case <-done:
		t.Fatal("push never blocked")
	default:
	}
	close(rec.gate)
	<-done
	if err := o.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := len(rec.lines()); got != 3*maxQueuedUpdates {
		t.Errorf("%d updates sent, want %d", got, 3*maxQueuedUpdates)
	}
	o.close()
	o.wait(time.Second)
}
