package agent

import (
	"encoding/json"
	"log/slog"

	"github.com/tandemhq/tandem/agent/store"
)

// Record kinds in a session log.
const (
	recUpdate       = "update"       // an Update, replayed by LoadSession
	recMessage      = "message"      // an llm.Message of the model history
	recInstructions = "instructions" // typed metadata of an instructions batch
)

// outItem is one entry of the FIFO: exactly one of its fields is set.
type outItem struct {
	send   *Update       // log it and hand it to the host
	logged *Update       // log it only (the user's own prompt)
	record *logRecord    // a non-update record
	meta   *store.Meta   // rewrite the sidecar
	flush  chan struct{} // flush and fsync, then close it
	stop   bool
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
	ch   chan outItem
	done chan struct{}

	pending *Update // coalesced chunk not yet logged; the goroutine's own
}

// outboxDepth lets a streaming turn run ahead of a slow Send a little; a
// full queue holds the producer back rather than growing without bound.
const outboxDepth = 64

func startOutbox(h Host, l *store.Log, warn *slog.Logger) *outbox {
	o := &outbox{host: h, log: l, warn: warn, ch: make(chan outItem, outboxDepth), done: make(chan struct{})}
	go o.run()
	return o
}

// put queues it; after stop it is dropped (nothing is left to send it).
func (o *outbox) put(it outItem) {
	select {
	case o.ch <- it:
	case <-o.done:
	}
}

// flush returns once everything queued before it is sent, logged and synced.
func (o *outbox) flush() {
	c := make(chan struct{})
	o.put(outItem{flush: c})
	select {
	case <-c:
	case <-o.done:
	}
}

// stop flushes and ends the goroutine.
func (o *outbox) stop() {
	o.put(outItem{stop: true})
	<-o.done
}

func (o *outbox) setMeta(m store.Meta) { o.put(outItem{meta: &m}) }

func (o *outbox) run() {
	defer close(o.done)
	for it := range o.ch {
		switch {
		case it.send != nil:
			o.logUpdate(*it.send)
			o.host.Send(*it.send)
		case it.logged != nil:
			o.logUpdate(*it.logged)
		case it.record != nil:
			o.flushPending()
			o.appendRaw(it.record.kind, it.record.data)
		case it.meta != nil:
			if o.log != nil {
				if err := o.log.SetMeta(*it.meta); err != nil {
					o.warn.Warn("session meta", "err", err)
				}
			}
		case it.flush != nil:
			o.sync()
			close(it.flush)
		case it.stop:
			o.sync()
			return
		}
	}
}

// logUpdate logs u. Consecutive message chunks of one kind are sent as they
// come but logged as one chunk, so a replay is not a token-by-token stream.
func (o *outbox) logUpdate(u Update) {
	if o.log == nil {
		return
	}
	if u.Chunk != nil && u.Chunk.Type == "text" {
		if o.pending != nil && o.pending.Type == u.Type {
			o.pending.Chunk.Text += u.Chunk.Text
			return
		}
		o.flushPending()
		c := *u.Chunk
		o.pending = &Update{Type: u.Type, Chunk: &c}
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
		o.warn.Error("session log append failed", "kind", kind, "err", err)
		return
	}
	o.appendRaw(kind, b)
}

func (o *outbox) appendRaw(kind string, b json.RawMessage) {
	if o.log == nil {
		return
	}
	if err := o.log.Append(store.Record{Kind: kind, Data: b}); err != nil {
		o.warn.Error("session log append failed", "kind", kind, "err", err)
	}
}

// sync writes the coalesced chunk and fsyncs: done at turn boundaries.
func (o *outbox) sync() {
	o.flushPending()
	if o.log != nil {
		if err := o.log.Sync(); err != nil {
			o.warn.Error("session log sync failed", "err", err)
		}
	}
}

// emit sends u to the host and appends it to the log, both in one order.
func (s *Session) emit(u Update) { s.out.put(outItem{send: &u}) }

// logOnly appends u to the log without sending it (the user's own prompt:
// the editor shows it already, a replay needs it).
func (s *Session) logOnly(u Update) { s.out.put(outItem{logged: &u}) }

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
	s.out.put(outItem{record: &logRecord{kind, b}})
}
