package agent

// emit publishes a turn's update: to the editor for the session's own
// turn, to the parent's tool call for a child's. The turn's own updates go
// through the FIFO's send: the turn is never the actor, so when nobody is
// handling the FIFO it hands them over itself, without a wake-up.
func (t *turnRun) emit(u Update) {
	if t.sub != nil {
		t.sub.sink(u)
		return
	}
	t.s.out.send(outItem{op: opSend, u: &u})
}

// emitChunk publishes a chunk of a streamed reply or thought, as emit
// does, except that the session's own go through the FIFO's goroutine (see
// outbox.putChunk).
func (t *turnRun) emitChunk(u Update) {
	if t.sub != nil {
		t.sub.sink(u)
		return
	}
	t.s.out.putChunk(outItem{op: opSend, u: &u})
}

// emitLive publishes an update the log does not keep (a live terminal).
func (t *turnRun) emitLive(u Update) {
	if t.sub != nil {
		t.sub.sink(u)
		return
	}
	t.s.out.send(outItem{op: opLive, u: &u})
}

// logOnly logs an update without sending it; a child's updates are not
// logged on their own (its parent's tool call carries them).
func (t *turnRun) logOnly(u Update) {
	if t.sub == nil {
		t.s.out.send(outItem{op: opLog, u: &u})
	}
}

// record appends a non-update record, as Session.record does, through the
// FIFO's send.
func (t *turnRun) record(kind string, v any) {
	if it, ok := t.s.recordItem(kind, v); ok {
		t.s.out.send(it)
	}
}

// callID is the id the editor knows a call by. A child's calls are
// prefixed with the parent's call id: the model numbers each conversation's
// calls on its own, and a permission prompt for a child's call must not
// collide with one of the parent's.
func (t *turnRun) callID(id string) string {
	if t.sub != nil {
		return t.sub.parentCall + "/" + id
	}
	return id
}
