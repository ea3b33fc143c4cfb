package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/store"
)

// gateHost holds its first Send until released, so everything queued
// meanwhile waits behind a write in flight, and records what it is sent.
type gateHost struct {
	testHost
	entered chan struct{} // closed when the first Send starts
	release chan struct{} // closing lets it return
	once    sync.Once
	mu      sync.Mutex
	sent    []Update
}

func newGateHost() *gateHost {
	return &gateHost{entered: make(chan struct{}), release: make(chan struct{})}
}

func (h *gateHost) Send(u Update) {
	h.once.Do(func() { close(h.entered); <-h.release })
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sent = append(h.sent, u)
}

// got describes what was sent, one entry per Send: kind, message and text.
func (h *gateHost) got() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, u := range h.sent {
		switch {
		case u.Chunk != nil:
			out = append(out, fmt.Sprintf("%s/%s:%s", u.Type, u.MessageID, u.Chunk.Text))
		default:
			out = append(out, string(u.Type)+":"+u.ModeID)
		}
	}
	return out
}

func chunk(kind UpdateType, msg, text string) outItem {
	return outItem{op: opSend, u: &Update{Type: kind, MessageID: msg, Chunk: &ContentBlock{Type: "text", Text: text}}}
}

func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// newTestLog opens a store in a temporary directory and creates one
// session's log in it, closed when the test ends; st and id read it back.
func newTestLog(t *testing.T) (st *store.Store, id string, l *store.Log) {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id = store.NewID()
	l, err = st.Create(store.Meta{ID: id, Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return st, id, l
}

// The stream keeps the order updates were produced in across kinds. The
// first chunk leaves at once, alone; chunks that queue while it is being
// written leave joined, but only with the chunks of the same message right
// beside them, never across another update, and never beyond maxCoalesced.
func TestStreamOrderAcrossKinds(t *testing.T) {
	h := newGateHost()
	o := startOutbox(h, nil, discard(), nil, 1<<20)
	defer o.stop()
	o.put(chunk(AgentMessageChunk, "m1", "a"))
	<-h.entered // "a" is being written, by nobody but its handler
	big := strings.Repeat("z", 3<<10)
	for _, it := range []outItem{
		chunk(AgentMessageChunk, "m1", "b"),
		chunk(AgentMessageChunk, "m1", "c"),
		chunk(AgentThoughtChunk, "m2", "x"),
		chunk(AgentThoughtChunk, "m2", "y"),
		{op: opSend, u: &Update{Type: CurrentModeUpdate, ModeID: "t1"}},
		chunk(AgentMessageChunk, "m1", "d"),
		chunk(AgentMessageChunk, "m3", "e"),
		chunk(AgentMessageChunk, "m3", big),
		chunk(AgentMessageChunk, "m3", big),
		chunk(AgentMessageChunk, "m3", big),
		{op: opLive, u: &Update{Type: CurrentModeUpdate, ModeID: "t2"}},
	} {
		o.put(it)
	}
	close(h.release)
	o.drain()
	want := []string{
		"agent_message_chunk/m1:a",
		"agent_message_chunk/m1:bc",
		"agent_thought_chunk/m2:xy",
		"current_mode_update:t1",
		"agent_message_chunk/m1:d",
		"agent_message_chunk/m3:e" + big + big, // a third would pass 8 KiB
		"agent_message_chunk/m3:" + big,
		"current_mode_update:t2",
	}
	if got := h.got(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("sent\n%q\nwant\n%q", got, want)
	}
}

// Nothing is lost when the stream stops: what producers queued before the
// stop reaches the host and the log, in one order.
func TestStreamLosesNothingAtClose(t *testing.T) {
	st, id, l := newTestLog(t)
	h := newGateHost()
	close(h.release)
	o := startOutbox(h, l, discard(), nil, 1<<20)
	const each = 300
	var wg sync.WaitGroup
	for p := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range each {
				if p == 0 {
					o.send(chunk(AgentMessageChunk, "m1", fmt.Sprintf("%d,", n)))
				} else {
					o.put(outItem{op: opSend, u: &Update{Type: CurrentModeUpdate, ModeID: fmt.Sprint(n)}})
				}
			}
		}()
	}
	wg.Wait()
	o.stop()
	var text strings.Builder
	modes := 0
	for _, u := range h.snapshotSent() {
		if u.Chunk != nil {
			text.WriteString(u.Chunk.Text)
		} else if u.ModeID != fmt.Sprint(modes) {
			t.Fatalf("mode update %q arrived where %d was next", u.ModeID, modes)
		} else {
			modes++
		}
	}
	var want strings.Builder
	for n := range each {
		fmt.Fprintf(&want, "%d,", n)
	}
	if text.String() != want.String() || modes != each {
		t.Fatalf("sent %d mode updates of %d and text %.40q…, want all of it in order", modes, each, text.String())
	}
	_, recs, _, err := st.Read(id)
	if err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	logModes := 0
	for _, r := range recs {
		var u Update
		if err := json.Unmarshal(r.Data, &u); err != nil {
			t.Fatal(err)
		}
		if u.Chunk != nil {
			logged.WriteString(u.Chunk.Text)
		} else {
			logModes++
		}
	}
	if logged.String() != want.String() || logModes != each {
		t.Fatalf("logged %d mode updates of %d and text %.40q…", logModes, each, logged.String())
	}
}

func (h *gateHost) snapshotSent() []Update {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Update(nil), h.sent...)
}

// A durability point in the stream (logged, before a tool acts) leaves
// everything queued before it in the log file, coalesced chunks included,
// while the stream goes on: a crash from then on (nothing stopped, nothing
// flushed at a turn's end) loses none of it.
func TestStreamDurableBeforeActing(t *testing.T) {
	st, id, l := newTestLog(t)
	h := newGateHost()
	o := startOutbox(h, l, discard(), nil, 1<<20)
	defer o.stop()
	o.put(chunk(AgentMessageChunk, "m1", "let me "))
	<-h.entered
	o.put(chunk(AgentMessageChunk, "m1", "edit "))
	o.put(chunk(AgentMessageChunk, "m1", "it"))
	o.put(outItem{op: opSend, u: &Update{Type: ToolCallStarted, Tool: &ToolCall{ID: "c1", Title: "edit"}}})
	close(h.release)
	o.logged()
	_, recs, _, err := st.Read(id)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		var u Update
		if err := json.Unmarshal(r.Data, &u); err != nil {
			t.Fatal(err)
		}
		if u.Chunk != nil {
			got = append(got, u.Chunk.Text)
		} else {
			got = append(got, string(u.Type))
		}
	}
	// One chunk record per batch the handler sent: "let me " left alone,
	// the rest queued behind its Send and left joined.
	if want := []string{"let me ", "edit it", string(ToolCallStarted)}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("the log after logged holds %q, want %q", got, want)
	}
}

// Cancelling a turn mid-stream ends it cleanly: the prompt answers
// cancelled, what reached the host is the reply's beginning in order, and
// nothing of the stream arrives after Prompt returned.
func TestStreamCancelMidStream(t *testing.T) {
	f := newFixture(t)
	s, h, _ := f.session(ModeCode, nil)
	text := make([]string, 2000)
	var full strings.Builder
	for i := range text {
		text[i] = fmt.Sprintf("w%d ", i)
		full.WriteString(text[i])
	}
	f.srv.Enqueue(llmtest.Reply{Text: text, Delay: llmtest.Duration(time.Millisecond)})
	done := make(chan StopReason, 1)
	go func() {
		r, err := s.Prompt(context.Background(), prompt("long"))
		if err != nil {
			t.Errorf("Prompt: %v", err)
		}
		done <- r
	}()
	h.await(t, func() bool { return strings.Contains(h.text(), "w20 ") })
	s.Cancel()
	if r := <-done; r != StopCancelled {
		t.Fatalf("stop reason %q, want cancelled", r)
	}
	got := h.text()
	if !strings.HasPrefix(full.String(), got) || got == full.String() {
		t.Fatalf("received %.60q…, want the reply's beginning, in order", got)
	}
	n := len(h.snapshot())
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, u := range h.snapshot()[n:] {
		if u.Type == AgentMessageChunk {
			t.Fatalf("a chunk arrived after Prompt returned: %q", u.Chunk.Text)
		}
	}
}
