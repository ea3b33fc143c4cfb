package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/store"
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
	o.mu.Lock()
	for o.busy || len(o.q) > 0 { // handled, the tail held back
		o.await() // until the handler's next batch is done
	}
	o.mu.Unlock()
	o.drain()
	// Chunks queued while a Send is in flight may leave joined.
	if got, want := strings.ReplaceAll(h.got(), " agent_message_chunk:", ""), "agent_message_chunk:one two sk-outbox"; got != want {
		t.Fatalf("after drain sent %q, want %q (the held-back tail included)", h.got(), want)
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

// orderHost records the updates it is sent, by producer and sequence
// number (Update.ModeID carries "producer/n").
type orderHost struct {
	testHost
	mu   sync.Mutex
	seen []string
}

func (h *orderHost) Send(u Update) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seen = append(h.seen, u.ModeID)
}

// Items queued by the actor's way (put) and handed over by producers that
// may handle the queue themselves (send, drain, flush), all at once, leave
// exactly once each and in the order each producer queued them; a drain or
// flush returns only once all its producer queued before was sent; after
// stop, nothing is sent and nothing hangs.
func TestOutboxHandlersKeepOrder(t *testing.T) {
	h := &orderHost{}
	o := startOutbox(h, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), nil, 1<<20)
	const producers, each = 6, 400
	var wg sync.WaitGroup
	errs := make(chan string, producers)
	for p := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range each {
				it := outItem{op: opSend, u: &Update{Type: CurrentModeUpdate, ModeID: fmt.Sprintf("%d/%d", p, n)}}
				if p%2 == 0 {
					o.put(it)
				} else {
					o.send(it)
				}
				switch {
				case n%50 == 49:
					o.flush()
				case n%7 == 6:
					o.drain()
				default:
					continue
				}
				h.mu.Lock()
				last := ""
				for _, s := range h.seen {
					if strings.HasPrefix(s, fmt.Sprintf("%d/", p)) {
						last = s
					}
				}
				h.mu.Unlock()
				if want := fmt.Sprintf("%d/%d", p, n); last != want {
					errs <- fmt.Sprintf("after producer %d's drain or flush its last update sent is %q, want %q", p, last, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	o.stop()
	o.put(outItem{op: opSend, u: &Update{Type: CurrentModeUpdate, ModeID: "late"}})
	o.send(outItem{op: opSend, u: &Update{Type: CurrentModeUpdate, ModeID: "late"}})
	o.drain()
	if err := o.flush(); err != nil {
		t.Errorf("flush after stop: %v", err)
	}
	next := make([]int, producers)
	for _, s := range h.seen {
		var p, n int
		if _, err := fmt.Sscanf(s, "%d/%d", &p, &n); err != nil {
			t.Fatalf("sent %q after stop", s)
		}
		if n != next[p] {
			t.Fatalf("producer %d: sent %d where %d was next", p, n, next[p])
		}
		next[p]++
	}
	for p, n := range next {
		if n != each {
			t.Errorf("producer %d: %d of %d updates sent", p, n, each)
		}
	}
}

// With a log, the goroutine writes it behind the handlers, whoever they
// are: once flush returns, the log holds every update and record queued
// before it, the updates in the order the host was sent them and each
// producer's items in the order it queued them.
func TestOutboxLogFollowsTheWire(t *testing.T) {
	st, id, l := newTestLog(t)
	h := &orderHost{}
	o := startOutbox(h, l, slog.New(slog.NewTextHandler(io.Discard, nil)), nil, 1<<20)
	defer o.stop()
	const producers, each = 4, 100
	var wg sync.WaitGroup
	for p := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range each {
				seq := fmt.Sprintf("%d/%d", p, n)
				switch {
				case n%5 == 4:
					o.send(outItem{op: opRecord, v: &logRecord{recMessage, json.RawMessage(`{"seq":"` + seq + `"}`)}})
				case p%2 == 0:
					o.put(outItem{op: opSend, u: &Update{Type: CurrentModeUpdate, ModeID: seq}})
				default:
					o.send(outItem{op: opSend, u: &Update{Type: CurrentModeUpdate, ModeID: seq}})
				}
			}
		}()
	}
	wg.Wait()
	if err := o.flush(); err != nil {
		t.Fatal(err)
	}
	_, recs, _, err := st.Read(id)
	if err != nil {
		t.Fatal(err)
	}
	var logged, updates []string
	for _, r := range recs {
		var v struct {
			Seq    string `json:"seq"`
			ModeID string `json:"currentModeId"`
		}
		if err := json.Unmarshal(r.Data, &v); err != nil {
			t.Fatal(err)
		}
		if r.Kind == recUpdate {
			updates = append(updates, v.ModeID)
			logged = append(logged, v.ModeID)
		} else {
			logged = append(logged, v.Seq)
		}
	}
	h.mu.Lock()
	sent := strings.Join(h.seen, " ")
	h.mu.Unlock()
	if got := strings.Join(updates, " "); got != sent {
		t.Fatalf("logged updates\n%s\nsent\n%s", got, sent)
	}
	next := make([]int, producers)
	for _, s := range logged {
		var p, n int
		fmt.Sscanf(s, "%d/%d", &p, &n)
		if n != next[p] {
			t.Fatalf("producer %d: logged %d where %d was next", p, n, next[p])
		}
		next[p]++
	}
	for p, n := range next {
		if n != each {
			t.Errorf("producer %d: %d of %d items logged", p, n, each)
		}
	}
}

// logged writes what was queued before it to the log before it returns,
// itself when nobody else is writing: here there is no goroutine at all,
// so only logged (or a send handling its own item) can have written it.
// With the goroutine and producers racing, each producer's own update is
// in the file once its logged returns.
func TestOutboxLoggedBeforeActing(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	open := func() (string, *store.Log) {
		id := store.NewID()
		l, err := st.Create(store.Meta{ID: id, Cwd: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		return id, l
	}
	updates := func(id string) string {
		_, recs, _, err := st.Read(id)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, r := range recs {
			b.Write(r.Data)
		}
		return b.String()
	}

	id, l := open()
	o := &outbox{host: &orderHost{}, log: l, warn: quiet, max: 1 << 20, bell: make(chan struct{}, 1), done: make(chan struct{})}
	o.put(outItem{op: opSend, u: &Update{Type: ToolCallStarted, Tool: &ToolCall{ID: "call_1", Title: "rm -rf build", Status: ToolInProgress}}})
	if got := updates(id); got != "" {
		t.Fatalf("the log was written with no writer: %s", got)
	}
	o.logged()
	if got := updates(id); !strings.Contains(got, "call_1") {
		t.Fatalf("after logged the log holds %q, want the tool call", got)
	}
	// A caller that handles its own update writes it to the log too, with
	// no goroutine to hand it to.
	o.send(outItem{op: opSend, u: &Update{Type: ToolCallUpdated, Tool: &ToolCall{ID: "call_2", Status: ToolCompleted}}})
	if got := updates(id); !strings.Contains(got, "call_2") {
		t.Fatalf("after send the log holds %q, want the update it handled", got)
	}

	id, l = open()
	o = startOutbox(&orderHost{}, l, quiet, nil, 1<<20)
	var wg sync.WaitGroup
	for p := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 25 {
				seq := fmt.Sprintf("mode-%d-%d", p, n)
				o.send(outItem{op: opSend, u: &Update{Type: CurrentModeUpdate, ModeID: seq}})
				o.logged()
				if got := updates(id); !strings.Contains(got, `"`+seq+`"`) {
					t.Errorf("%s was not in the log when logged returned", seq)
					return
				}
			}
		}()
	}
	wg.Wait()
	stopped := make(chan struct{})
	go func() { o.stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("stop did not end the outbox")
	}
}

// A drain or logged that finds the stop queued (a plugin asking while the
// session closes) still returns only once all queued before it was sent
// and, for logged, written: the stop is queued last, so waiting for it
// is waiting for them.
func TestOutboxDrainWhileStopping(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	h := &slowHost{}
	o := startOutbox(h, nil, quiet, nil, 1<<20)
	for range 5 {
		o.put(outItem{op: opSend, u: &Update{Type: ToolCallStarted}})
	}
	o.put(outItem{op: opStop})
	o.drain()
	if got, want := h.got(), strings.TrimSpace(strings.Repeat(string(ToolCallStarted)+" ", 5)); got != want {
		t.Errorf("drain returned with %q sent, want %q", got, want)
	}
	<-o.done

	st, id, l := newTestLog(t)
	o = startOutbox(&slowHost{}, l, quiet, nil, 1<<20)
	for n := range 5 {
		o.put(outItem{op: opSend, u: &Update{Type: ToolCallStarted, Tool: &ToolCall{ID: fmt.Sprintf("call_%d", n)}}})
	}
	o.put(outItem{op: opStop})
	o.logged()
	_, recs, _, err := st.Read(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 5 {
		t.Errorf("logged returned with %d of 5 updates in the log", len(recs))
	}
	<-o.done
}

// A long streamed reply is logged as one chunk, gathered at a cost
// proportional to its length: joining each chunk onto the text so far
// copied the whole reply per chunk (some 800 MB for 20,000 chunks, a third
// of tandem's CPU in a streamed reply).
func TestOutboxLogGathersAReplyLinearly(t *testing.T) {
	st, id, l := newTestLog(t)
	o := &outbox{log: l, warn: slog.New(slog.NewTextHandler(io.Discard, nil))}
	const chunks = 20000
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range chunks {
		o.logUpdate(Update{Type: AgentMessageChunk, MessageID: "m1", Chunk: &ContentBlock{Type: "text", Text: "tok "}})
	}
	runtime.ReadMemStats(&after)
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(64*4*chunks); got > limit {
		t.Errorf("gathering %d chunks of 4 bytes allocated %d bytes, over %d", chunks, got, limit)
	}
	o.sync()
	_, recs, _, err := st.Read(id)
	if err != nil {
		t.Fatal(err)
	}
	var u Update
	if len(recs) != 1 || json.Unmarshal(recs[0].Data, &u) != nil || u.Chunk == nil || u.Chunk.Text != strings.Repeat("tok ", chunks) {
		t.Fatalf("logged %d records, want the reply as one chunk", len(recs))
	}
}
