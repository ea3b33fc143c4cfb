package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/internal/jsonrpc"
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

// TestOutboxCoalescesChunks: text chunks that queue up while a
// notification is being written leave as one, in order, with nothing lost;
// the first chunk of a burst is not held back; chunks of different
// messages or kinds, and anything between them, stay apart.
func TestOutboxCoalescesChunks(t *testing.T) {
	rec := &recorder{gate: make(chan struct{})}
	o := newOutbox(rec)
	o.start(context.Background(), "s_1")
	o.pushChunk("agent_message_chunk", "m1", "first")
	// The writer is now blocked on the gate with "first" in hand.
	deadline := time.Now().Add(5 * time.Second)
	for {
		o.mu.Lock()
		empty := len(o.queue) == 0
		o.mu.Unlock()
		if empty || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	for i := range 50 {
		o.pushChunk("agent_message_chunk", "m1", fmt.Sprintf("<%d>", i))
	}
	o.pushChunk("agent_thought_chunk", "m1", "hmm ")
	o.pushChunk("agent_thought_chunk", "m1", "\"quoted\"")
	o.push([]byte(`{"sessionUpdate":"tool_call","toolCallId":"c"}`))
	o.pushChunk("agent_message_chunk", "m1", "after")
	o.pushChunk("agent_message_chunk", "m2", "next message")
	close(rec.gate)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := o.flush(ctx); err != nil {
		t.Fatal(err)
	}
	var rest strings.Builder
	for i := range 50 {
		fmt.Fprintf(&rest, "<%d>", i)
	}
	chunk := func(kind, id, text string) string {
		q, _ := json.Marshal(text)
		return `session/update {"sessionId":"s_1","update":{"sessionUpdate":"` + kind + `","content":{"type":"text","text":` + string(q) + `},"messageId":"` + id + `"}}`
	}
	want := []string{
		chunk("agent_message_chunk", "m1", "first"),
		chunk("agent_message_chunk", "m1", rest.String()),
		chunk("agent_thought_chunk", "m1", "hmm \"quoted\""),
		`session/update {"sessionId":"s_1","update":{"sessionUpdate":"tool_call","toolCallId":"c"}}`,
		chunk("agent_message_chunk", "m1", "after"),
		chunk("agent_message_chunk", "m2", "next message"),
	}
	got := rec.lines()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notifications:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The encoding is the one agent.Update writes.
	var u agent.Update
	raw := encodeChunk(agent.AgentMessageChunk, "m9", "a<b>&\n")
	if err := json.Unmarshal(raw, &u); err != nil || u.Chunk.Text != "a<b>&\n" || u.MessageID != "m9" || u.Type != agent.AgentMessageChunk {
		t.Errorf("encodeChunk: %s → %+v, %v", raw, u, err)
	}
	o.close()
	o.wait(5 * time.Second)
}

// tooLarge refuses notifications whose params encode over limit, as the
// connection does over its frame cap, and records the others.
type tooLarge struct {
	recorder
	limit int
}

func (r *tooLarge) Notify(ctx context.Context, method string, params any) error {
	if b, _ := json.Marshal(params); len(b) > r.limit {
		return fmt.Errorf("%w: %d bytes", jsonrpc.ErrTooLarge, len(b))
	}
	return r.recorder.Notify(ctx, method, params)
}

// Joining chunks stops at maxCoalesced, so it cannot build a frame over
// the smallest cap; and an update the connection refuses as too large is
// dropped alone: the ones after it still go out and flush succeeds.
func TestOutboxCoalescingBoundedAndOversizeDropped(t *testing.T) {
	rec := &tooLarge{recorder: recorder{gate: make(chan struct{})}, limit: 64 << 10}
	o := newOutbox(rec)
	o.start(context.Background(), "s_1")
	piece := strings.Repeat("x", 3<<10)
	for range 10 {
		o.pushChunk("agent_message_chunk", "m1", piece)
	}
	o.push(json.RawMessage(`{"sessionUpdate":"plan","entries":[],"pad":"` + strings.Repeat("y", 70<<10) + `"}`))
	o.pushChunk("agent_message_chunk", "m2", "after")
	close(rec.gate)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := o.flush(ctx); err != nil {
		t.Fatalf("flush after an oversize update: %v", err)
	}
	got := rec.lines()
	total := 0
	for _, l := range got[:len(got)-1] {
		n := strings.Count(l, "x") - 2 // "type":"text","text"
		if n > maxCoalesced {
			t.Errorf("a notification joined %d bytes of text", n)
		}
		total += n
	}
	if total != 10*len(piece) || !strings.Contains(got[len(got)-1], `"after"`) {
		t.Errorf("%d bytes of text sent in %d notifications; last %s", total, len(got), got[len(got)-1])
	}
	o.close()
	o.wait(5 * time.Second)
}

// choosy takes a notification that would have to wait (an ended context)
// only every other time, as a connection whose queue is sometimes full,
// and is slow to refuse, so other pushes queue up meanwhile.
type choosy struct {
	recorder
	n atomic.Int64
}

func (c *choosy) Notify(ctx context.Context, method string, params any) error {
	if ctx.Err() != nil && c.n.Add(1)%2 == 0 {
		time.Sleep(100 * time.Microsecond)
		return fmt.Errorf("full: %w", ctx.Err())
	}
	return c.recorder.Notify(context.Background(), method, params)
}

// An update pushed while nothing is queued or being written reaches the
// connection before push returns; pushed from several goroutines at once,
// with chunks between them and a connection that sometimes cannot take
// one at once, every update leaves exactly once and in each pusher's
// order.
func TestOutboxHandsOverInOrder(t *testing.T) {
	rec := &choosy{}
	o := newOutbox(rec)
	o.start(context.Background(), "s")
	o.push([]byte(`{"first":true}`))
	o.push([]byte(`{"second":true}`)) // the connection refuses to take it at once
	if got := rec.lines(); len(got) != 1 || !strings.Contains(got[0], "first") {
		t.Fatalf("after an idle push the connection has %q, want the update", got)
	}
	const pushers, each = 4, 150
	var wg sync.WaitGroup
	for p := range pushers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range each {
				if n%3 == 2 {
					o.pushChunk("agent_message_chunk", fmt.Sprint("m", p), fmt.Sprintf("(%d:%d)", p, n))
				} else {
					o.push(fmt.Appendf(nil, `{"seq":"(%d:%d)"}`, p, n))
				}
			}
		}()
	}
	wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := o.flush(ctx); err != nil {
		t.Fatal(err)
	}
	next := make([]int, pushers)
	for _, l := range rec.lines()[2:] {
		for _, tok := range strings.Split(l, "(")[1:] {
			var p, n int
			if _, err := fmt.Sscanf(tok, "%d:%d)", &p, &n); err != nil {
				t.Fatalf("notification %s: %v", l, err)
			}
			if n != next[p] {
				t.Fatalf("pusher %d: update %d left where %d was next", p, n, next[p])
			}
			next[p]++
		}
	}
	for p, n := range next {
		if n != each {
			t.Errorf("pusher %d: %d of %d updates left", p, n, each)
		}
	}
	o.close()
	o.wait(5 * time.Second)
}
