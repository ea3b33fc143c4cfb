package acp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

var errOutboxClosed = errors.New("acp: the session's update stream is closed")

// maxQueuedUpdates bounds one session's queue. Beyond it Send waits for the
// writer, which itself waits on the connection's bounded outbox: a client
// that stops reading slows the agent down instead of growing memory.
const maxQueuedUpdates = 256

// maxCoalesced bounds the text of chunks joined into one notification, so
// that joining cannot make a frame over the smallest cap maxFrameBytes
// allows (64 KiB): even escaped six-fold, 8 KiB and the envelope fit.
const maxCoalesced = 8 << 10

// notifier is the connection as the outbox needs it.
type notifier interface {
	Notify(ctx context.Context, method string, params any) error
}

// queued is one update waiting to be sent: encoded, or a text chunk kept
// as text so that the chunks piling up while the previous notification is
// written leave as one (see run).
type queued struct {
	raw   json.RawMessage // the encoded update; nil for a chunk
	kind  agent.UpdateType
	msgID string
	text  string
}

// updateParams is session/update's params with the update already encoded:
// agent.Update's JSON is ACP's update object, so it needs no conversion.
type updateParams struct {
	SessionID sdk.SessionId   `json:"sessionId"`
	Update    json.RawMessage `json:"update"`
}

// outbox is one session's FIFO of session/update notifications. Send
// returns as soon as the update is queued (waiting only while the queue is
// full); one goroutine per session hands them to the connection in order,
// except that an update finding nothing ahead of it is handed over by Send
// itself when the connection takes it without waiting.
// Anything that must come after the updates queued so far (a client
// request, the prompt's response) calls flush first: the connection has one
// FIFO writer, so what is queued there after flush leaves after them.
type outbox struct {
	conn notifier

	mu       sync.Mutex // guards the fields below
	sid      sdk.SessionId
	queue    []queued      // updates not yet sent
	queued   uint64        // updates ever queued
	written  uint64        // updates sent (or dropped after a send error)
	progress chan struct{} // closed and replaced at every update sent
	wake     chan struct{}
	err      error // first send error; later updates are dropped
	started  bool
	closed   bool
	// writing says a notification is on its way to the connection: the
	// writer's, or one a push hands over itself (see enqueue). One at a
	// time, so they leave in order.
	writing bool
	done    chan struct{}
}

func newOutbox(conn notifier) *outbox {
	return &outbox{
		conn:     conn,
		progress: make(chan struct{}),
		wake:     make(chan struct{}, 1),
		done:     make(chan struct{}),
	}
}

// start binds the outbox to its session id and starts its writer; updates
// queued before start wait for it. The writer stops when ctx ends or close
// is called, after sending what was queued.
func (o *outbox) start(ctx context.Context, sid string) {
	o.mu.Lock()
	if o.started || o.closed {
		o.mu.Unlock()
		return
	}
	o.sid, o.started = sdk.SessionId(sid), true
	o.mu.Unlock()
	go o.run(ctx)
}

// push queues one encoded update, waiting while the queue is full. Before
// start (the agent is still creating the session) it never waits, since no
// writer could make room; the agent sends only a handful of updates then.
func (o *outbox) push(update json.RawMessage) { o.enqueue(queued{raw: update}) }

// pushChunk queues a text chunk of a message or thought.
func (o *outbox) pushChunk(kind agent.UpdateType, msgID, text string) {
	o.enqueue(queued{kind: kind, msgID: msgID, text: text})
}

func (o *outbox) enqueue(q queued) {
	o.mu.Lock()
	for len(o.queue) >= maxQueuedUpdates && !o.closed && o.started {
		ch := o.progress
		o.mu.Unlock()
		select {
		case <-ch:
			o.mu.Lock()
		case <-o.done:
			return // the writer is gone: nothing would send it
		}
	}
	if o.closed {
		o.mu.Unlock()
		return
	}
	o.queued++
	switch {
	case q.raw == nil || !o.started || o.writing || len(o.queue) > 0 || o.err != nil:
		o.queue = append(o.queue, q)
	case o.handOver(q.raw):
		return
	default: // first in line: whatever was pushed meanwhile is behind it
		o.queue = append([]queued{q}, o.queue...)
	}
	o.mu.Unlock()
	o.ring()
}

// handOver gives an encoded update straight to the connection, with o.mu
// held, when nothing is queued or being written before it and the
// connection takes it without waiting: a tool call's updates then leave
// without waking the writer. Text chunks always go through the queue,
// where those that pile up are joined. It returns with o.mu released when
// the update went (or failed as send counts failures), and false, o.mu
// still held, when the connection's queue was full.
func (o *outbox) handOver(raw json.RawMessage) bool {
	o.writing = true
	sid := o.sid
	o.mu.Unlock()
	// An ended context makes Notify refuse rather than wait for room.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := o.conn.Notify(ctx, sdk.ClientMethodSessionUpdate, updateParams{SessionID: sid, Update: raw})
	o.mu.Lock()
	o.writing = false
	if errors.Is(err, context.Canceled) {
		return false
	}
	o.sent(err, 1)
	more := len(o.queue) > 0 || o.closed
	o.mu.Unlock()
	if more {
		o.ring() // the writer holds back while a push hands over
	}
	return true
}

// ring wakes the writer.
func (o *outbox) ring() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// pushValue encodes v (an agent.Update or an SDK update) and queues it.
func (o *outbox) pushValue(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	o.push(b)
	return nil
}

// flush waits until every update queued before the call is handed to the
// connection.
func (o *outbox) flush(ctx context.Context) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	target := o.queued
	for o.written < target {
		ch := o.progress
		o.mu.Unlock()
		select {
		case <-ch:
			o.mu.Lock()
		case <-o.done:
			o.mu.Lock()
			if o.written < target {
				if o.err != nil {
					return o.err
				}
				return errOutboxClosed
			}
		case <-ctx.Done():
			o.mu.Lock()
			return ctx.Err()
		}
	}
	return o.err
}

// close stops the writer once what is queued has been sent.
func (o *outbox) close() {
	o.mu.Lock()
	already := o.closed
	o.closed = true
	started := o.started
	o.mu.Unlock()
	if already {
		return
	}
	if !started {
		close(o.done)
		return
	}
	o.ring()
}

// wait blocks until the writer has stopped, at most d.
func (o *outbox) wait(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-o.done:
	case <-t.C:
	}
}

func (o *outbox) run(ctx context.Context) {
	defer close(o.done)
	for {
		o.mu.Lock()
		var batch []queued
		if !o.writing { // else the push handing one over rings when done
			batch, o.queue = o.queue, nil
			o.writing = len(batch) > 0
		}
		closed := o.closed && !o.writing
		o.mu.Unlock()
		for i := 0; i < len(batch); {
			raw, n := coalesce(batch[i:])
			o.send(ctx, raw, n)
			i += n
		}
		if len(batch) > 0 {
			o.mu.Lock()
			o.writing = false
			o.mu.Unlock()
			continue
		}
		if closed {
			return
		}
		select {
		case <-o.wake:
		case <-ctx.Done():
			return
		}
	}
}

// coalesce encodes the first update of batch, joined with the text chunks
// of the same message that directly follow it, and says how many it took.
// Only what queued up while the writer was busy is joined: a chunk that
// finds the writer idle leaves at once, alone.
func coalesce(batch []queued) (json.RawMessage, int) {
	first := batch[0]
	if first.raw != nil {
		return first.raw, 1
	}
	n := 1
	text := first.text
	if len(batch) > 1 && batch[1].raw == nil && batch[1].kind == first.kind && batch[1].msgID == first.msgID {
		var b strings.Builder
		b.WriteString(first.text)
		for n < len(batch) && batch[n].raw == nil && batch[n].kind == first.kind && batch[n].msgID == first.msgID &&
			b.Len()+len(batch[n].text) <= maxCoalesced {
			b.WriteString(batch[n].text)
			n++
		}
		text = b.String()
	}
	return encodeChunk(first.kind, first.msgID, text), n
}

// encodeChunk writes a text chunk update, as agent.Update would, without
// going through reflection.
func encodeChunk(kind agent.UpdateType, msgID, text string) json.RawMessage {
	quoted, _ := json.Marshal(text) // a string always encodes
	b := make([]byte, 0, len(quoted)+len(kind)+len(msgID)+72)
	b = append(b, `{"sessionUpdate":"`...)
	b = append(b, kind...)
	b = append(b, `","content":{"type":"text","text":`...)
	b = append(b, quoted...)
	b = append(b, '}')
	if msgID != "" {
		b = append(b, `,"messageId":`...)
		id, _ := json.Marshal(msgID)
		b = append(b, id...)
	}
	return append(b, '}')
}

// send hands one notification, standing for n queued updates, to the
// connection, waiting while its outbox is full, and counts them.
func (o *outbox) send(ctx context.Context, update json.RawMessage, n int) {
	o.mu.Lock()
	failed := o.err != nil
	sid := o.sid
	o.mu.Unlock()
	var err error
	if !failed {
		err = o.conn.Notify(ctx, sdk.ClientMethodSessionUpdate, updateParams{SessionID: sid, Update: update})
	}
	o.mu.Lock()
	o.sent(err, n)
	o.mu.Unlock()
}

// sent counts n updates handed to the connection with outcome err, with
// o.mu held. An update over the frame cap is dropped alone (the agent caps
// texts so this does not happen; a frame that still does must not end the
// session's updates); any other failure ends them.
func (o *outbox) sent(err error, n int) {
	if err != nil && o.err == nil && !errors.Is(err, jsonrpc.ErrTooLarge) {
		o.err = err
	}
	o.written += uint64(n)
	close(o.progress)
	o.progress = make(chan struct{})
}
