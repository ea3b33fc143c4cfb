package agent

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tandemhq/tandem/agent/store"
	"github.com/tandemhq/tandem/internal/redact"
)

// handle does what one item asks, on the handler's goroutine: it sends
// what goes to the host and passes what goes to the log on to the log's
// writer (see logLater), so a turn handling its own updates waits for the
// disk only where it asks to (logged, flush).
func (o *outbox) handle(it outItem) {
	if it.op == opSend && o.streamed(*it.u) {
		return
	}
	o.endStreams(endsStreams(it))
	switch it.op {
	case opSend:
		u := guardUpdate(o.red, o.max, *it.u)
		o.logLater(logItem{op: opSend, u: u})
		o.host.Send(u)
	case opLog:
		o.logLater(logItem{op: opSend, u: guardUpdate(o.red, o.max, *it.u)})
	case opLive:
		o.host.Send(guardUpdate(o.red, o.max, *it.u))
	case opTerm:
		o.sendTerm(it.v.(*liveTerm))
	case opRecord, opMeta, opWrite, opSync, opStop:
		o.logLater(logItem{op: it.op, v: it.v})
	}
}

// logItem is what the log's writer writes, in the FIFO's order:
// an update (opSend), a record, the sidecar, a write or sync barrier, or
// the stop.
type logItem struct {
	op outOp
	u  Update
	v  any
}

// logLater hands li to the log's writer with the handler's current batch.
// Without a log only the stop has anything left to do there, and a sync
// is answered at once: nothing can have failed to save.
func (o *outbox) logLater(li logItem) {
	if o.log == nil {
		switch li.op {
		case opWrite, opSync:
			li.v.(chan error) <- nil
			return
		case opStop:
		default:
			return
		}
	}
	o.logs = append(o.logs, li)
}

// writeLogs writes one batch to the log, as its writer, and reports
// whether it ended with the stop. Records are appended together, a write
// per batch, before anything that must follow them on disk.
func (o *outbox) writeLogs(items []logItem) (stop bool) {
	for i := range items {
		li := &items[i]
		switch li.op {
		case opSend:
			o.logUpdate(li.u)
		case opRecord:
			r := li.v.(*logRecord)
			o.flushPending()
			o.appendRaw(r.kind, r.data)
		case opMeta:
			if o.log != nil {
				o.writeRecords()
				if err := o.log.SetMeta(li.v.(store.Meta)); err != nil {
					o.failed("session meta", err)
				}
			}
		case opWrite, opSync:
			o.flushPending()
			o.writeRecords()
			if li.op == opSync {
				o.sync()
			}
			li.v.(chan error) <- o.err
			o.err = nil
		case opStop:
			o.sync()
			stop = true
		}
		*li = logItem{}
	}
	// A reply still streaming is logged as far as it went, one record
	// per batch: what reached the wire is in the file before the next
	// batch leaves (see serve), not only when the reply ends.
	o.flushPending()
	o.writeRecords()
	return stop
}

// textStream is one text streamed in chunks, a reply or its thoughts,
// leaving through a redact.Stream.
type textStream struct {
	of *Update // the stream's update, text aside; nil: none is open
	redact.Stream
}

// streamed sends u when it is a chunk of a streamed model reply or
// thought, through its stream's redaction, and reports whether it was one.
// A reply and its thoughts stream side by side; a chunk of another message
// of the same conversation ends both first. Conversations (the session's
// own, each subagent's) stream apart: subagents may run in parallel, and
// one's chunks must not cut another's held tail loose.
func (o *outbox) streamed(u Update) bool {
	if u.MessageID == "" || u.Chunk == nil || u.Chunk.Type != "text" || (u.Type != AgentMessageChunk && u.Type != AgentThoughtChunk) {
		return false
	}
	conv := conversation(u)
	o.endStreams(func(of *Update) bool { return conversation(*of) == conv && of.MessageID != u.MessageID })
	i := slices.IndexFunc(o.streams, func(st textStream) bool { return conversation(*st.of) == conv && st.of.Type == u.Type })
	if i < 0 {
		o.streams = append(o.streams, textStream{of: &Update{Type: u.Type, MessageID: u.MessageID, Nest: u.Nest}, Stream: o.red.Stream()})
		i = len(o.streams) - 1
	}
	st := &o.streams[i]
	o.sendChunk(st.of, st.Next(u.Chunk.Text))
	return true
}

// conversation is the task call a subagent's update belongs to; "" for
// the session's own.
func conversation(u Update) string {
	if u.Nest == nil {
		return ""
	}
	return u.Nest.ParentCall
}

// endsStreams says which streams' held tails must leave before it (nil:
// none). An update of no message (a notice, a mode change, a background
// tool's progress) may come between two chunks of a reply; sending the
// tail before it would cut a secret in two pieces that each pass the
// redactor, so the tail waits for the stream's next chunk instead. A tool
// call starting or a message follows its conversation's reply, and takes
// that tail first, as does a drain for one conversation (drainIn); a
// record (the reply entering the history), any other drain, a sync and
// the stop take every tail.
func endsStreams(it outItem) func(*Update) bool {
	switch it.op {
	case opMeta, opTerm: // the sidecar, a command's output: no part of a reply's order
		return nil
	case opSend, opLog, opLive:
		if it.u.MessageID == "" && it.u.Type != ToolCallStarted && it.u.Type != CompactionUpdated {
			return nil
		}
		conv := conversation(*it.u)
		return func(of *Update) bool { return conversation(*of) == conv }
	case opDrain:
		if conv, ok := it.v.(*string); ok && conv != nil {
			return func(of *Update) bool { return conversation(*of) == *conv }
		}
	}
	return func(*Update) bool { return true }
}

// endStreams sends what the streams that match held back, and closes them:
// they ended, or something else is about to leave and must follow them.
func (o *outbox) endStreams(match func(*Update) bool) {
	if match == nil {
		return
	}
	open := o.streams[:0]
	for _, st := range o.streams {
		if !match(st.of) {
			open = append(open, st)
			continue
		}
		o.sendChunk(st.of, st.Flush())
	}
	clear(o.streams[len(open):])
	o.streams = open
}

// streaming reports whether a stream is open, and may hold a tail back.
func (o *outbox) streaming() bool { return len(o.streams) > 0 }

// sendChunk sends and logs one already redacted piece of the stream of.
func (o *outbox) sendChunk(of *Update, text string) {
	if text == "" {
		return
	}
	u := *of
	u.Chunk = &ContentBlock{Type: "text", Text: text}
	u = guardUpdate(nil, o.max, u) // redacted by the stream; only the size cap is left
	o.logLater(logItem{op: opSend, u: u})
	o.host.Send(u)
}

// logUpdate logs u, as the log's writer. Consecutive message chunks of one
// kind in a batch of the writer are logged as one chunk (a reply of many
// batches as several, which a load joins again: replayChunks). Their text
// gathers in a builder: joining each chunk onto a string copied the whole
// reply so far per chunk, quadratic in a long reply.
func (o *outbox) logUpdate(u Update) {
	if o.log == nil {
		return
	}
	if u.Chunk != nil && u.Chunk.Type == "text" {
		if o.pending != nil && o.pending.Type == u.Type && o.pending.MessageID == u.MessageID && conversation(*o.pending) == conversation(u) {
			o.pendingText.WriteString(u.Chunk.Text)
			return
		}
		o.flushPending()
		c := *u.Chunk
		o.pending = &Update{Type: u.Type, Chunk: &c, MessageID: u.MessageID, Nest: u.Nest}
		o.pendingText.WriteString(c.Text)
		return
	}
	o.flushPending()
	o.appendUpdate(u)
}

func (o *outbox) flushPending() {
	if o.pending != nil {
		p := *o.pending
		c := *p.Chunk
		c.Text = o.pendingText.String()
		p.Chunk = &c
		o.pending = nil
		o.pendingText.Reset()
		o.appendUpdate(p)
	}
}

// appendUpdate gathers u as a record of the log. Its MarshalJSON is called
// directly: json.Marshal(u) would scan and copy what it returns once more.
func (o *outbox) appendUpdate(u Update) {
	if o.log == nil {
		return
	}
	b, err := u.MarshalJSON()
	if err != nil {
		o.failed("session log append failed", fmt.Errorf("%w: encode %s: %w", store.ErrSave, recUpdate, err))
		return
	}
	o.appendRaw(recUpdate, b)
}

func (o *outbox) appendRaw(kind string, b json.RawMessage) {
	if o.log == nil {
		return
	}
	o.recs = append(o.recs, store.Record{Kind: kind, Data: o.red.Bytes(b)})
}

// writeRecords appends the records gathered so far in one write.
func (o *outbox) writeRecords() {
	if len(o.recs) == 0 {
		return
	}
	if err := o.log.Append(o.recs...); err != nil {
		o.failed("session log append failed", err)
	}
	clear(o.recs)
	o.recs = o.recs[:0]
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
		o.writeRecords()
		if err := o.log.Sync(); err != nil {
			o.failed("session log sync failed", err)
		}
	}
}
