package agent

import (
	"context"

	"github.com/tandemhq/tandem/codeindex"
)

// codeIndexes is the session's index part: each root's code index, built
// in the background on first use and held until Close, and the list of
// the built ones the turns' views carry. Its fields other than s belong to
// the actor.
type codeIndexes struct {
	s *Session
	// roots holds each root's code index by root; nil: not started.
	roots map[string]*rootIndex
	// built is every root's index once built, in allRoots order (nil
	// entries until then); replaced whole, for the turns' views.
	built []*codeindex.Index
}

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

// warm starts building every root's code index in the background,
// once. It is not done at session start: a session opened in a huge
// directory that never asks about code should not pay for indexing it.
// Sessions on the same root share its index through the pool.
func (p *codeIndexes) warm() {
	s := p.s
	if s.a.cfg.Indexes == nil {
		return
	}
	s.change(func() {
		if p.roots != nil {
			return
		}
		p.roots = map[string]*rootIndex{}
		for _, root := range s.allRoots() {
			ctx, cancel := context.WithCancel(context.Background())
			ri := &rootIndex{cancel: cancel, done: make(chan struct{})}
			p.roots[root] = ri
			go p.build(ctx, root, ri.done)
		}
	})
}

// build acquires root's index and hands it to the actor; Close
// cancels ctx and waits for done.
func (p *codeIndexes) build(ctx context.Context, root string, done chan struct{}) {
	s := p.s
	defer close(done)
	ix, release, err := s.a.cfg.Indexes.Acquire(ctx, root)
	if err != nil {
		if ctx.Err() == nil {
			s.a.log.Warn("code index", "session", s.id, "root", root, "err", err)
		}
		return
	}
	if s.change(func() {
		ri := p.roots[root]
		ri.ix, ri.release = ix, release
		p.publish()
	}) != nil {
		release() // the session closed meanwhile
	}
}

// publish records a fresh copy of the built indexes for the turns'
// views and sends it to the running turns; on the actor. A slice once
// recorded is never changed: turns read it without the actor.
func (p *codeIndexes) publish() {
	s := p.s
	out := make([]*codeindex.Index, 1+len(s.roots))
	for i, root := range s.allRoots() {
		if ri := p.roots[root]; ri != nil {
			out[i] = ri.ix
		}
	}
	p.built = out
	s.viewChanged()
}

// done returns the channels that close when the roots' builders
// return, primary root first; nil before warmIndex.
func (p *codeIndexes) done() (out []chan struct{}) {
	s := p.s
	s.read(func() {
		if x := p.roots; x != nil {
			for _, root := range s.allRoots() {
				out = append(out, x[root].done)
			}
		}
	})
	return out
}

// list returns every root's code index from v, primary root first,
// in the order of allRoots; an entry is nil while that root's index is not
// built (a tool then parses what it lists on its own). The caller must not
// change the slice.
func (p *codeIndexes) list(v turnView) []*codeindex.Index {
	s := p.s
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
