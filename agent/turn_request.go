package agent

// emit publishes a turn's update through the FIFO's send: the turn is
// never the actor, so when nobody is handling the FIFO it hands them over
// itself, without a wake-up. A child's updates leave the same way, nested
// under its task call (subagent.nest).
func (t *turnRun) emit(u Update) {
	t.sub.nest(&u)
	t.s.out.send(outItem{op: opSend, u: &u})
}

// emitChunk publishes a chunk of a streamed reply or thought, as emit
// does, except that they go through the FIFO's goroutine (see
// outbox.putChunk).
func (t *turnRun) emitChunk(u Update) {
	t.sub.nest(&u)
	t.s.out.putChunk(outItem{op: opSend, u: &u})
}

// emitLive publishes an update the log does not keep (a live terminal).
func (t *turnRun) emitLive(u Update) {
	t.sub.nest(&u)
	t.s.out.send(outItem{op: opLive, u: &u})
}

// logOnly logs an update without sending it.
func (t *turnRun) logOnly(u Update) {
	t.sub.nest(&u)
	t.s.out.send(outItem{op: opLog, u: &u})
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

// conv is the turn's conversation, for the update stream's waits
// (outbox.drainIn): "" for the session's own, the task call for a child's.
func (t *turnRun) conv() *string {
	conv := ""
	if t.sub != nil {
		conv = t.sub.parentCall
	}
	return &conv
}

// host is the session's host as the turn's tool calls use it: its waits
// for the update stream end only the turn's own conversation's streams.
func (t *turnRun) host() Host {
	h, ok := t.s.host.(orderedHost)
	if !ok {
		return t.s.host
	}
	h.conv = t.conv()
	return h
}
