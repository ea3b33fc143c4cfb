package agent

import (
	"context"

	"github.com/tandemhq/tandem/codeindex"
)

// warmIndex starts building the root's code index in the background, once.
// It is not done at session start: a session opened in a huge directory
// that never asks about code should not pay for indexing it.
func (s *Session) warmIndex() {
	if s.a.cfg.Indexes == nil {
		return
	}
	s.extra.indexMu.Lock()
	defer s.extra.indexMu.Unlock()
	if s.extra.indexStarted {
		return
	}
	s.extra.indexStarted = true
	ctx, cancel := context.WithCancel(context.Background())
	s.extra.indexCancel = cancel
	go func() {
		ix, release, err := s.a.cfg.Indexes.Acquire(ctx, s.root)
		if err != nil {
			if ctx.Err() == nil {
				s.a.log.Warn("code index", "session", s.id, "root", s.root, "err", err)
			}
			return
		}
		s.extra.indexMu.Lock()
		defer s.extra.indexMu.Unlock()
		if ctx.Err() != nil { // the session closed meanwhile
			release()
			return
		}
		s.extra.index, s.extra.indexRelease = ix, release
	}()
}

// index returns the root's code index when it is built, else nil (the
// tool then parses what it lists on its own).
func (s *Session) index() *codeindex.Index {
	s.extra.indexMu.Lock()
	defer s.extra.indexMu.Unlock()
	return s.extra.index
}
