package agent

import (
	"encoding/json"

	"github.com/tandemhq/tandem/agent/store"
)

// Record kinds in a session log.
const (
	recUpdate       = "update"       // an Update, replayed by LoadSession
	recMessage      = "message"      // an llm.Message of the model history
	recInstructions = "instructions" // typed metadata of an instructions batch
)

// emit sends u to the host and appends it to the log, both in one order.
// Consecutive message chunks of one kind are sent as they come but logged
// as one chunk, so a replay is not a token-by-token stream.
func (s *Session) emit(u Update) {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	s.logUpdateLocked(u)
	s.host.Send(u)
}

// logOnly appends u to the log without sending it (the user's own prompt:
// the editor shows it already, a replay needs it).
func (s *Session) logOnly(u Update) {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	s.logUpdateLocked(u)
}

func (s *Session) logUpdateLocked(u Update) {
	if s.log == nil {
		return
	}
	if u.Chunk != nil && u.Chunk.Type == "text" {
		if s.pending != nil && s.pending.Type == u.Type {
			s.pending.Chunk.Text += u.Chunk.Text
			return
		}
		s.flushLocked()
		c := *u.Chunk
		s.pending = &Update{Type: u.Type, Chunk: &c}
		return
	}
	s.flushLocked()
	s.appendLocked(recUpdate, u)
}

// flushLocked writes the coalesced chunk, if any.
func (s *Session) flushLocked() {
	if s.pending != nil {
		p := *s.pending
		s.pending = nil
		s.appendLocked(recUpdate, p)
	}
}

// record appends a non-update record (history, instructions metadata).
func (s *Session) record(kind string, v any) {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	s.flushLocked()
	s.appendLocked(kind, v)
}

func (s *Session) appendLocked(kind string, v any) {
	if s.log == nil {
		return
	}
	b, err := json.Marshal(v)
	if err == nil {
		err = s.log.Append(store.Record{Kind: kind, Data: b})
	}
	if err != nil {
		s.a.log.Error("session log append failed", "session", s.id, "kind", kind, "err", err)
	}
}

// syncLog flushes coalesced chunks and fsyncs: called at turn boundaries.
func (s *Session) syncLog() {
	s.sendMu.Lock()
	s.flushLocked()
	s.sendMu.Unlock()
	if s.log != nil {
		if err := s.log.Sync(); err != nil {
			s.a.log.Error("session log sync failed", "session", s.id, "err", err)
		}
	}
}
