package agent

import (
	"context"

	"github.com/tandemhq/tandem/codeindex"
)

// rootIndex is the code index of one of the session's roots: built in the
// background by a goroutine the session owns, then held until Close.
type rootIndex struct {
	ix      *codeindex.Index // nil until built
	release func()
	cancel  context.CancelFunc
	done    chan struct{} // closed when the builder goroutine returns
}

// allRoots is the primary root, then the additional ones in the editor's
// order: the order of the repository map and of the indexes tools see.
func (s *Session) allRoots() []string { return append([]string{s.root}, s.roots...) }

// warmIndex starts building every root's code index in the background,
// once. It is not done at session start: a session opened in a huge
// directory that never asks about code should not pay for indexing it.
// Sessions on the same root share its index through the pool.
func (s *Session) warmIndex() {
	if s.a.cfg.Indexes == nil {
		return
	}
	s.change(func() {
		x := &s.st.extra
		if x.indexes != nil {
			return
		}
		x.indexes = map[string]*rootIndex{}
		for _, root := range s.allRoots() {
			ctx, cancel := context.WithCancel(context.Background())
			ri := &rootIndex{cancel: cancel, done: make(chan struct{})}
			x.indexes[root] = ri
			go s.buildIndex(ctx, root, ri.done)
		}
	})
}

// buildIndex acquires root's index and hands it to the actor; Close
// cancels ctx and waits for done.
func (s *Session) buildIndex(ctx context.Context, root string, done chan struct{}) {
	defer close(done)
	ix, release, err := s.a.cfg.Indexes.Acquire(ctx, root)
	if err != nil {
		if ctx.Err() == nil {
			s.a.log.Warn("code index", "session", s.id, "root", root, "err", err)
		}
		return
	}
	if s.change(func() {
		ri := s.st.extra.indexes[root]
		ri.ix, ri.release = ix, release
		s.builtIndexes()
	}) != nil {
		release() // the session closed meanwhile
	}
}

// builtIndexes records a fresh copy of the built indexes for the turns'
// views and sends it to the running turns; on the actor. A slice once
// recorded is never changed: turns read it without the actor.
func (s *Session) builtIndexes() {
	out := make([]*codeindex.Index, 1+len(s.roots))
	for i, root := range s.allRoots() {
		if ri := s.st.extra.indexes[root]; ri != nil {
			out[i] = ri.ix
		}
	}
	s.st.extra.built = out
	s.viewChanged()
}

// indexesDone returns the channels that close when the roots' builders
// return, primary root first; nil before warmIndex.
func (s *Session) indexesDone() (done []chan struct{}) {
	s.read(func() {
		if x := s.st.extra.indexes; x != nil {
			for _, root := range s.allRoots() {
				done = append(done, x[root].done)
			}
		}
	})
	return done
}

// rootIndexes returns every root's code index from v, primary root first,
// in the order of allRoots; an entry is nil while that root's index is not
// built (a tool then parses what it lists on its own). The caller must not
// change the slice.
func (s *Session) rootIndexes(v turnView) []*codeindex.Index {
	if v.indexes != nil {
		return v.indexes
	}
	return make([]*codeindex.Index, 1+len(s.roots))
}

// stopIndexes stops the builders and releases the indexes; it runs once
// the actor has returned (see stopExtras).
func stopIndexes(indexes map[string]*rootIndex) {
	for _, ri := range indexes {
		ri.cancel()
		<-ri.done
		if ri.release != nil {
			ri.release()
		}
	}
}
