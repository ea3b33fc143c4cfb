package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/store"
	"github.com/tandemhq/tandem/internal/redact"
)

// Record kinds in a session log.
const (
	recUpdate       = "update"       // an Update, replayed by LoadSession
	recMessage      = "message"      // an llm.Message of the model history
	recInstructions = "instructions" // typed metadata of an instructions batch
	// recCompaction is one compaction: the model history from then on
	// (compactionRecord). A record carries its own version, so the kind
	// can change shape without a new log format.
	recCompaction = "compaction"
)

// outOp is what the FIFO does with an item.
type outOp uint8

const (
	opSend   outOp = iota // log u and hand it to the host
	opLog                 // log u only (the user's own prompt)
	opLive                // hand u to the host only (a live terminal)
	opRecord              // append v, a *logRecord
	opMeta                // rewrite the sidecar from v, a store.Meta
	opDrain               // close v, a chan struct{}: all before it is sent
	opSync                // flush and fsync, then send the first save error since the last opSync on v, a chan error
	opStop                // flush and end
)

// outItem is one entry of the FIFO, kept small: idle sessions hold a
// queue of them each.
type outItem struct {
	op outOp
	u  *Update
	v  any
}

type logRecord struct {
	kind string
	data json.RawMessage
}

// outbox is the session's one FIFO for what leaves it. Its goroutine is the
// only user of the log and of Host.Send, so the log and the wire see the
// order in which items were queued, whichever goroutine queued them.
type outbox struct {
	host Host
	log  *store.Log // nil: sessions are not stored
	warn *slog.Logger
	red  *redact.Redactor // hides secrets in all that leaves; nil hides none
	max  int              // caps each text of an update (Config.MaxResultBytes)
	ch   chan outItem
	done chan struct{}
	// queued counts items put and not yet handled, holding says a streamed
	// reply's tail is held back: with neither, all that was queued before
	// has been handed to Send, and drain need not wait for the goroutine
	// (a tool step's read and edit usually find it so).
	queued  atomic.Int64
	holding atomic.Bool

	pending *Update // coalesced chunk not yet logged; the goroutine's own
	err     error   // first failure to save since the last sync; the goroutine's own

	// stream redacts the streamed reply (or thoughts) whose chunks are
	// arriving, holding back a tail that could start a secret (see
	// redact.Stream); streamOf is that stream's update, text aside. Both
	// the goroutine's own.
	stream   redact.Stream
	streamOf *Update
}

// outboxDepth lets a streaming turn run ahead of a slow Send a little; a
// full queue holds the producer back rather than growing without bound.
const outboxDepth = 8

func startOutbox(h Host, l *store.Log, warn *slog.Logger, red *redact.Redactor, limit int) *outbox {
	o := &outbox{host: h, log: l, warn: warn, red: red, max: limit, ch: make(chan outItem, outboxDepth), done: make(chan struct{})}
	go o.run()
	return o
}

// put queues it; after stop it is dropped (nothing is left to send it).
func (o *outbox) put(it outItem) {
	o.queued.Add(1)
	select {
	case o.ch <- it:
	case <-o.done:
		o.queued.Add(-1)
	}
}

// drainSpin bounds how long drain yields, rather than parks, while the
// goroutine works through what is queued: a tool step's drain usually finds
// one update on its way to Send, and parking the turn for it (then being
// woken by the goroutine) cost the step more than the Send itself.
const drainSpin = 50 * time.Microsecond

// drain returns once everything queued before it was handed to Send.
func (o *outbox) drain() {
	var deadline time.Time
	for o.queued.Load() != 0 || o.holding.Load() {
		if o.holding.Load() { // only a later item releases a held tail
			o.wait(opDrain)
			return
		}
		now := time.Now()
		if deadline.IsZero() {
			deadline = now.Add(drainSpin)
		} else if now.After(deadline) {
			o.wait(opDrain)
			return
		}
		runtime.Gosched()
	}
}

// flush returns once everything queued before it is sent, logged and on
// stable storage. Its error is the first failure to save since the last
// flush: the caller reports it, so no event is lost silently.
func (o *outbox) flush() error {
	c := make(chan error, 1)
	o.put(outItem{op: opSync, v: c})
	select {
	case err := <-c:
		return err
	case <-o.done:
		return nil
	}
}

func (o *outbox) wait(op outOp) {
	c := make(chan struct{})
	o.put(outItem{op: op, v: c})
	select {
	case <-c:
	case <-o.done:
	}
}

// stop flushes and ends the goroutine.
func (o *outbox) stop() {
	o.put(outItem{op: opStop})
	<-o.done
}

func (o *outbox) setMeta(m store.Meta) { o.put(outItem{op: opMeta, v: m}) }

func (o *outbox) run() {
	defer close(o.done)
	for it := range o.ch {
		o.handle(it)
		o.holding.Store(o.streamOf != nil) // before the count drain reads first
		o.queued.Add(-1)
		if it.op == opStop {
			return
		}
	}
}

// handle does what one item asks, on the goroutine.
func (o *outbox) handle(it outItem) {
	if it.op == opSend && o.streamed(*it.u) {
		return
	}
	if it.op != opMeta { // the sidecar is no part of the stream's order
		o.endStream()
	}
	switch it.op {
	case opSend:
		u := guardUpdate(o.red, o.max, *it.u)
		o.logUpdate(u)
		o.host.Send(u)
	case opLog:
		o.logUpdate(guardUpdate(o.red, o.max, *it.u))
	case opLive:
		o.host.Send(guardUpdate(o.red, o.max, *it.u))
	case opRecord:
		r := it.v.(*logRecord)
		o.flushPending()
		o.appendRaw(r.kind, r.data)
	case opMeta:
		if o.log != nil {
			if err := o.log.SetMeta(it.v.(store.Meta)); err != nil {
				o.failed("session meta", err)
			}
		}
	case opDrain:
		close(it.v.(chan struct{}))
	case opSync:
		o.sync()
		it.v.(chan error) <- o.err
		o.err = nil
	case opStop:
		o.sync()
	}
}

// streamed sends u when it is a chunk of a streamed model reply or
// thought, through the stream's redaction, and reports whether it was
// one. A chunk of another stream ends the current one first.
func (o *outbox) streamed(u Update) bool {
	if u.MessageID == "" || u.Chunk == nil || u.Chunk.Type != "text" || (u.Type != AgentMessageChunk && u.Type != AgentThoughtChunk) {
		return false
	}
	if o.streamOf == nil || o.streamOf.Type != u.Type || o.streamOf.MessageID != u.MessageID {
		o.endStream()
		o.stream = o.red.Stream()
		o.streamOf = &Update{Type: u.Type, MessageID: u.MessageID}
	}
	o.sendChunk(o.stream.Next(u.Chunk.Text))
	return true
}

// endStream sends what the stream held back: the stream ended, or
// something else is about to leave and must follow all of it.
func (o *outbox) endStream() {
	if o.streamOf == nil {
		return
	}
	o.sendChunk(o.stream.Flush())
	o.streamOf = nil
}

// sendChunk sends and logs one already redacted piece of the stream.
func (o *outbox) sendChunk(text string) {
	if text == "" {
		return
	}
	u := *o.streamOf
	u.Chunk = &ContentBlock{Type: "text", Text: text}
	u = guardUpdate(nil, o.max, u) // redacted by the stream; only the size cap is left
	o.logUpdate(u)
	o.host.Send(u)
}

// logUpdate logs u. Consecutive message chunks of one kind are sent as they
// come but logged as one chunk, so a replay is not a token-by-token stream.
func (o *outbox) logUpdate(u Update) {
	if o.log == nil {
		return
	}
	if u.Chunk != nil && u.Chunk.Type == "text" {
		if o.pending != nil && o.pending.Type == u.Type && o.pending.MessageID == u.MessageID {
			o.pending.Chunk.Text += u.Chunk.Text
			return
		}
		o.flushPending()
		c := *u.Chunk
		o.pending = &Update{Type: u.Type, Chunk: &c, MessageID: u.MessageID}
		return
	}
	o.flushPending()
	o.append(recUpdate, u)
}

func (o *outbox) flushPending() {
	if o.pending != nil {
		p := *o.pending
		o.pending = nil
		o.append(recUpdate, p)
	}
}

func (o *outbox) append(kind string, v any) {
	if o.log == nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		o.failed("session log append failed", fmt.Errorf("%w: encode %s: %w", store.ErrSave, kind, err))
		return
	}
	o.appendRaw(kind, b)
}

func (o *outbox) appendRaw(kind string, b json.RawMessage) {
	if o.log == nil {
		return
	}
	if err := o.log.Append(store.Record{Kind: kind, Data: o.red.Bytes(b)}); err != nil {
		o.failed("session log append failed", err)
	}
}

// failed logs a save failure and keeps the first one for the next flush.
func (o *outbox) failed(what string, err error) {
	o.warn.Error(what, "err", err)
	if o.err == nil {
		o.err = err
	}
}

// sync writes the coalesced chunk and fsyncs: done at turn boundaries.
func (o *outbox) sync() {
	o.flushPending()
	if o.log != nil {
		if err := o.log.Sync(); err != nil {
			o.failed("session log sync failed", err)
		}
	}
}

// emit sends u to the host and appends it to the log, both in one order.
func (s *Session) emit(u Update) { s.out.put(outItem{op: opSend, u: &u}) }

// logOnly appends u to the log without sending it (the user's own prompt:
// the editor shows it already, a replay needs it).
func (s *Session) logOnly(u Update) { s.out.put(outItem{op: opLog, u: &u}) }

// emitLive sends u without logging it: it names something (a terminal)
// that will not exist when the log is replayed.
func (s *Session) emitLive(u Update) { s.out.put(outItem{op: opLive, u: &u}) }

// record appends a non-update record (history, instructions metadata). It
// is encoded here, so the caller may go on changing v.
func (s *Session) record(kind string, v any) {
	if s.log == nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		s.a.log.Error("session log append failed", "session", s.id, "kind", kind, "err", err)
		return
	}
	s.out.put(outItem{op: opRecord, v: &logRecord{kind, b}})
}

// orderedHost is the Host a session's own code calls. Updates travel
// through the FIFO, so before each request to the editor it waits until
// the updates produced so far are handed over: the editor sees a tool call
// before the permission request, read or edit it makes.
type orderedHost struct {
	Host
	out *outbox
}

func (h orderedHost) ReadFile(ctx context.Context, path string) (string, error) {
	h.out.drain()
	return h.Host.ReadFile(ctx, path)
}

func (h orderedHost) ApplyEdit(ctx context.Context, e edits.FileEdit) (edits.Result, error) {
	h.out.drain()
	return h.Host.ApplyEdit(ctx, e)
}

func (h orderedHost) RequestPermission(ctx context.Context, req PermissionRequest) (Decision, error) {
	h.out.drain()
	return h.Host.RequestPermission(ctx, req)
}

func (h orderedHost) RunCommand(ctx context.Context, spec CommandSpec) (CommandResult, error) {
	h.out.drain()
	return h.Host.RunCommand(ctx, spec)
}
