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
	s.change(func() {
		x := &s.st.extra
		if x.indexDone != nil {
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		x.indexCancel, x.indexDone = cancel, make(chan struct{})
		go s.buildIndex(ctx, x.indexDone)
	})
}

// buildIndex acquires the index and hands it to the actor; Close cancels
// ctx and waits for done.
func (s *Session) buildIndex(ctx context.Context, done chan struct{}) {
	defer close(done)
	ix, release, err := s.a.cfg.Indexes.Acquire(ctx, s.root)
	if err != nil {
		if ctx.Err() == nil {
			s.a.log.Warn("code index", "session", s.id, "root", s.root, "err", err)
		}
		return
	}
	if s.change(func() { s.st.extra.index, s.st.extra.indexRelease = ix, release }) != nil {
		release() // the session closed meanwhile
	}
}

// index returns the root's code index when it is built, else nil (the
// tool then parses what it lists on its own).
func (s *Session) index() (ix *codeindex.Index) {
	s.read(func() { ix = s.st.extra.index })
	return ix
}
