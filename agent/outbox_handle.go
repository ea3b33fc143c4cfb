package agent

import (
	"encoding/json"
	"fmt"

	"github.com/tandemhq/tandem/agent/store"
)

// handle does what one item asks, on the handler's goroutine.
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
