package agent

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"

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
	opTerm                // send a live terminal's new output, v (a *liveTerm); never logged
	opRecord              // append v, a *logRecord
	opMeta                // rewrite the sidecar from v, a store.Meta
	opDrain               // nothing: ends a held stream, so drain sees all before it sent
	opWrite               // write to the log file, then send the first save error since the last report on v, a chan error
	opSync                // write and fsync, then send the first save error since the last report on v, a chan error
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

// outbox is the session's one FIFO for what leaves it. One goroutine at a
// time handles its items, in the order they were queued, so the wire and
// the log see one order whichever goroutine queued them. That handler is
// either the outbox's own goroutine, woken once per burst, or a caller that
// may run Host.Send itself (the running turn, drain) and finds nobody
// handling: it then works through the queue on the spot, so a tool step's
// updates leave without waking another thread and waiting for it. The log
// is written in the same order, right behind the handlers: by the handler
// after each batch it sent, or by a caller that needs it written (logged,
// before the session acts on the world) and is writing already; only those
// callers and a flush wait for it. The actor only ever queues (put), because a Host.Send may
// be waiting on the actor.
type outbox struct {
	host Host
	log  *store.Log // nil: sessions are not stored
	warn *slog.Logger
	red  *redact.Redactor // hides secrets in all that leaves; nil hides none
	max  int              // caps each text of an update (Config.MaxResultBytes)
	bell chan struct{}    // wakes the goroutine: items or log items wait
	done chan struct{}    // closed when the goroutine has ended

	mu      sync.Mutex // guards the fields up to the handler's own
	q       []outItem  // queued, not yet taken by a handler
	spare   []outItem  // the array of the batch handled last, reused
	queued  uint64     // items ever queued
	handled uint64     // items ever handled
	busy    bool       // a handler is working through the queue
	holding bool       // a streamed reply's tail is held back (see stream)
	closing bool       // opStop is queued: later items are dropped
	logQ    []logItem  // for the log's writer, in order
	// The log's writer is the goroutine or a caller of logged, one at a
	// time (logBusy); logQueued and logDone count the items put in logQ
	// and written, logStopped says the stop was written.
	logBusy     bool
	logQueued   uint64
	logDone     uint64
	logStopped  bool
	logSpare    []logItem     // the array written last, reused
	logProgress chan struct{} // when someone waits on the writer: closed after its next batch
	// progress, when someone waits on the handler, is closed after its
	// next batch.
	progress chan struct{}

	// The handler's own, whichever goroutine that is: the mutex hands them
	// from one handler to the next.
	logs []logItem // this batch's log items, for logQ
	// streams redact the streamed replies and thoughts whose chunks are
	// arriving, each holding back a tail that could start a secret (see
	// redact.Stream and streamed): the session's and each subagent's.
	streams []textStream

	// The log writer's own, whichever goroutine that is.
	pending     *Update         // coalesced chunk not yet logged, its text aside
	pendingText strings.Builder // pending's text
	recs        []store.Record  // records not yet appended
	err         error           // first failure to save since the last sync
}

// outboxDepth lets a streaming turn run ahead of a slow Send; a deeper
// queue holds the turn back rather than growing without bound. It is the
// stream's only queue before the connection's, so chunks that arrive
// while a notification is written can pile up here and leave as one
// (coalesce).
const outboxDepth = 256

// maxCoalesced bounds the text of chunks joined into one update, so that
// joining cannot make a frame over the smallest cap Config.MaxFrameBytes
// allows (64 KiB): even escaped six-fold, 8 KiB and the envelope fit.
const maxCoalesced = 8 << 10

// coalesce joins the text chunks of one streamed message or thought that
// directly follow batch[0] into it, up to maxCoalesced bytes, and says how
// many items batch[0] now stands for. Only what queued while the handler
// was busy (the previous Send in flight) is joined: a chunk that finds the
// handler idle is its batch's first and leaves at once.
func coalesce(batch []outItem) int {
	first := batch[0]
	if !joinable(first) {
		return 1
	}
	n := 1
	size := len(first.u.Chunk.Text)
	for n < len(batch) && joinable(batch[n]) && batch[n].u.Type == first.u.Type && batch[n].u.MessageID == first.u.MessageID &&
		conversation(*batch[n].u) == conversation(*first.u) &&
		size+len(batch[n].u.Chunk.Text) <= maxCoalesced {
		size += len(batch[n].u.Chunk.Text)
		n++
	}
	if n == 1 {
		return 1
	}
	var b strings.Builder
	b.Grow(size)
	for _, it := range batch[:n] {
		b.WriteString(it.u.Chunk.Text)
	}
	u := *first.u
	u.Chunk = &ContentBlock{Type: "text", Text: b.String()}
	batch[0].u = &u
	return n
}

// joinable says whether it is a text chunk of a streamed reply or thought.
func joinable(it outItem) bool {
	u := it.u
	return it.op == opSend && u != nil && u.MessageID != "" && u.Chunk != nil && u.Chunk.Type == "text" &&
		(u.Type == AgentMessageChunk || u.Type == AgentThoughtChunk)
}

func startOutbox(h Host, l *store.Log, warn *slog.Logger, red *redact.Redactor, limit int) *outbox {
	o := &outbox{host: h, log: l, warn: warn, red: red, max: limit, bell: make(chan struct{}, 1), done: make(chan struct{})}
	go o.run()
	return o
}

// put queues it for the goroutine, never handling it on the caller's own
// goroutine and never waiting; after stop it is dropped (nothing is left to
// send it). Only the actor and goroutines that do not produce a stream use
// it, so the queue stays short without holding them back.
func (o *outbox) put(it outItem) {
	o.mu.Lock()
	if !o.enqueue(it) || o.busy {
		o.mu.Unlock() // the handler at work takes it too
		return
	}
	o.mu.Unlock()
	o.ring()
}

// putChunk queues a chunk of a streamed reply for the goroutine, waiting
// while the queue is outboxDepth deep. Chunks are not handled on the
// caller's goroutine: while the turn reads the next ones from the model,
// the goroutine redacts and sends those before, a burst per wake-up.
func (o *outbox) putChunk(it outItem) {
	o.mu.Lock()
	for len(o.q) >= outboxDepth {
		o.await() // someone is handling it: the goroutine was rung, or a caller serves
	}
	if !o.enqueue(it) || o.busy {
		o.mu.Unlock()
		return
	}
	o.mu.Unlock()
	o.ring()
}

// send queues it and, when nobody is handling the queue, handles it on the
// caller's goroutine, with whatever was queued before it. A caller that
// finds the goroutine busy leaves it there, waiting only while the queue
// is outboxDepth deep. The caller must not be the actor.
func (o *outbox) send(it outItem) {
	o.mu.Lock()
	for o.busy && len(o.q) >= outboxDepth {
		o.await()
	}
	if !o.enqueue(it) || o.busy {
		o.mu.Unlock()
		return
	}
	o.serve()
}

// drain returns once everything queued before it was handed to Send,
// including a streamed reply's held-back tail. Like send, it does the work
// itself when nobody is handling the queue, and returns at once when there
// is nothing to do. The caller must not be the actor.
func (o *outbox) drain() { o.drainIn(nil) }

// drainIn is drain for the caller's conversation (a *string: "" the
// session's own, else a subagent's task call; nil: every one): it ends
// only that conversation's streams, so a subagent reading a file does not
// cut a sibling's held tail loose.
func (o *outbox) drainIn(conv *string) {
	o.mu.Lock()
	if len(o.q) == 0 && !o.busy && !o.holding {
		o.mu.Unlock()
		return
	}
	// The marker ends a held stream: only a later item releases its tail.
	// When the outbox is stopping it is dropped, but the stop, queued last,
	// ends the stream too: waiting for what is queued is still the work.
	o.enqueue(outItem{op: opDrain, v: conv})
	if !o.busy {
		o.serve()
		return
	}
	for target := o.queued; o.handled < target; {
		o.await()
	}
	o.mu.Unlock()
}

// logged returns once everything queued before it has been handed to
// Send and written to the log file, so that a crash of tandem from then on
// loses none of it (stable storage, against a crash of the machine, is
// flush's). The session calls it before it acts on the world (asks the
// user, edits a file, runs a command): a replay after a crash then knows
// the tool call it was making. It writes the log itself when nobody is
// writing it. The caller must not be the actor.
func (o *outbox) logged() { o.loggedIn(nil) }

// loggedIn is logged for the caller's conversation (see drainIn).
func (o *outbox) loggedIn(conv *string) {
	o.drainIn(conv)
	if o.log == nil {
		return
	}
	o.mu.Lock()
	for target := o.logQueued; o.logDone < target && !o.logStopped; {
		if !o.logBusy {
			o.writeLogQ()
			o.mu.Lock()
			continue
		}
		o.waitFor(&o.logProgress)
	}
	o.mu.Unlock()
}

// writeLogQ makes the caller the log's writer: with o.mu held and nobody
// else writing, it writes what logQ holds, batch by batch, until it finds
// it empty or has written the stop, and returns with o.mu released,
// reporting whether it wrote the stop.
func (o *outbox) writeLogQ() (stop bool) {
	o.logBusy = true
	for len(o.logQ) > 0 && !stop {
		logs := o.logQ
		o.logQ = o.logSpare[:0]
		o.mu.Unlock()
		stop = o.writeLogs(logs)
		o.mu.Lock()
		o.logSpare = logs[:0]
		o.logDone += uint64(len(logs))
		progressed(&o.logProgress)
	}
	o.logBusy = false
	o.logStopped = o.logStopped || stop
	o.mu.Unlock()
	if stop {
		o.ring() // the goroutine ends, whoever wrote the stop
	}
	return stop
}

// flush returns once everything queued before it is sent, logged and on
// stable storage. Its error is the first failure to save since the last
// flush: the caller reports it, so no event is lost silently. Like drain,
// it does the work itself when nobody is handling the queue; the caller
// must not be the actor.
func (o *outbox) flush() error { return o.barrier(opSync) }

// written returns once everything queued before it is sent and written to
// the log file (write(2), no fsync): a kill -9 of tandem from then on
// loses none of it, a crash of the machine still may until the next
// flush. Its error is the first failure to save since the last written or
// flush; the caller must not be the actor.
func (o *outbox) written() error { return o.barrier(opWrite) }

// barrier queues op (opWrite, opSync) and waits until the log's writer
// has done it.
func (o *outbox) barrier(op outOp) error {
	c := make(chan error, 1)
	o.send(outItem{op: op, v: c})
	select {
	case err := <-c:
		return err
	case <-o.done:
		return nil
	}
}

// stop flushes and ends the goroutine.
func (o *outbox) stop() {
	o.put(outItem{op: opStop})
	<-o.done
}

func (o *outbox) setMeta(m store.Meta) { o.put(outItem{op: opMeta, v: m}) }

// enqueue appends it, with o.mu held; it reports false when the outbox is
// stopping and it was dropped.
func (o *outbox) enqueue(it outItem) bool {
	if o.closing {
		return false
	}
	o.q = append(o.q, it)
	o.queued++
	o.closing = it.op == opStop
	return true
}

// await waits, with o.mu held, until the handler finishes a batch.
func (o *outbox) await() { o.waitFor(&o.progress) }

// waitFor waits, with o.mu held, until the worker that closes *progress
// (the handler's o.progress, the log writer's o.logProgress) finishes its
// next batch.
func (o *outbox) waitFor(progress *chan struct{}) {
	if *progress == nil {
		*progress = make(chan struct{})
	}
	c := *progress
	o.mu.Unlock()
	<-c
	o.mu.Lock()
}

// progressed wakes, with o.mu held, whoever waits on *progress.
func progressed(progress *chan struct{}) {
	if *progress != nil {
		close(*progress)
		*progress = nil
	}
}

// ring wakes the goroutine; a bell already rung and not yet heard is
// enough.
func (o *outbox) ring() {
	select {
	case o.bell <- struct{}{}:
	default:
	}
}

func (o *outbox) run() {
	defer close(o.done)
	for range o.bell {
		for {
			o.mu.Lock()
			if !o.busy && len(o.q) > 0 {
				o.serve()
				continue
			}
			if o.logStopped {
				o.mu.Unlock()
				return
			}
			// A caller writing the log takes what is queued meanwhile too.
			if o.logBusy || len(o.logQ) == 0 {
				o.mu.Unlock()
				break
			}
			if o.writeLogQ() {
				return
			}
		}
	}
}

// serve makes the caller the handler: with o.mu held and nobody else
// handling, it works through the queue, batch by batch, until it finds it
// empty, and returns with o.mu released. Items queued meanwhile, by
// anyone, are handled in the same run. What is for the log goes to the
// log's writer after each batch: the handler itself, with one write(2) and
// no fsync, unless someone (a caller of logged) is writing already and
// takes it along. The wire has a batch first; the log has it before the
// next batch leaves, so a kill -9 loses at most the batch just sent, and a
// tool step's caller writes its own updates rather than waking the
// goroutine to do it, a wake-up and a switch of threads per step.
func (o *outbox) serve() {
	o.busy = true
	ring := false
	for len(o.q) > 0 {
		batch := o.q
		o.q = o.spare[:0]
		o.mu.Unlock()
		for i := 0; i < len(batch); {
			n := coalesce(batch[i:])
			o.handle(batch[i])
			clear(batch[i : i+n])
			i += n
		}
		o.mu.Lock()
		o.spare = batch[:0]
		o.handled += uint64(len(batch))
		o.holding = o.streaming()
		logs := len(o.logs) > 0
		if logs {
			o.logQ = append(o.logQ, o.logs...)
			o.logQueued += uint64(len(o.logs))
			clear(o.logs)
			o.logs = o.logs[:0]
		}
		progressed(&o.progress)
		if logs && !o.logBusy && !o.logStopped {
			// The batch is on the wire: its log follows at once, a
			// reply's chunks too (see writeLogs), so a kill -9 loses at
			// most what this handler sent last.
			o.writeLogQ()
			o.mu.Lock()
			continue
		}
		ring = ring || logs
	}
	o.busy = false
	o.mu.Unlock()
	if ring {
		o.ring() // a writer was busy: the goroutine looks again once it is done
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
	if it, ok := s.recordItem(kind, v); ok {
		s.out.put(it)
	}
}

// recordItem is the FIFO item appending v as a record of kind; false when
// nothing is to be logged.
func (s *Session) recordItem(kind string, v any) (outItem, bool) {
	if s.log == nil {
		return outItem{}, false
	}
	b, err := json.Marshal(v)
	if err != nil {
		s.a.log.Error("session log append failed", "session", s.id, "kind", kind, "err", err)
		return outItem{}, false
	}
	return outItem{op: opRecord, v: &logRecord{kind, b}}, true
}

// orderedHost is the Host a session's own code calls. Updates travel
// through the FIFO, so before each request to the editor it waits until
// the updates produced so far are handed over: the editor sees a tool call
// before the permission request, read or edit it makes.
type orderedHost struct {
	Host
	out  *outbox
	conv *string // the conversation a turn's tool call belongs to (see drainIn); nil: every one
}

func (h orderedHost) ReadFile(ctx context.Context, path string) (string, error) {
	h.out.drainIn(h.conv)
	return h.Host.ReadFile(ctx, path)
}

// An edit, a permission request and a command act on the world: the log
// holds the tool call before they start (logged), so a replay after a
// crash during them ends the call interrupted instead of forgetting it.

func (h orderedHost) ApplyEdit(ctx context.Context, e edits.FileEdit) (edits.Result, error) {
	h.out.loggedIn(h.conv)
	return h.Host.ApplyEdit(ctx, e)
}

func (h orderedHost) RequestPermission(ctx context.Context, req PermissionRequest) (Decision, error) {
	h.out.loggedIn(h.conv)
	return h.Host.RequestPermission(ctx, req)
}

func (h orderedHost) RunCommand(ctx context.Context, spec CommandSpec) (CommandResult, error) {
	h.out.loggedIn(h.conv)
	return h.Host.RunCommand(ctx, spec)
}
