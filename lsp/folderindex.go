package lsp

import (
	"context"
	"sync"

	"github.com/tandemhq/tandem/codeindex"
)

// indexes holds the code index of each workspace folder workspace/symbol
// has searched, acquired lazily from the pool the sessions share (a folder
// a session works in is indexed once for both) and released when the
// folder leaves the workspace (didChangeWorkspaceFolders) or the
// connection ends.
type indexes struct {
	mu      sync.Mutex // guards held, warming and closed
	held    map[string]heldIndex
	warming map[string]bool
	closed  bool
	wg      sync.WaitGroup // warm's goroutines
}

type heldIndex struct {
	ix      *codeindex.Index
	release func()
}

// get returns root's index, acquiring it on first use. The pool may build
// it meanwhile, which can take long: that happens outside the lock, so a
// folder change or another search is not held up behind it.
func (ix *indexes) get(ctx context.Context, pool *codeindex.Pool, root string) (*codeindex.Index, error) {
	ix.mu.Lock()
	h, ok := ix.held[root]
	ix.mu.Unlock()
	if ok {
		return h.ix, nil
	}
	i, release, err := pool.Acquire(ctx, root)
	if err != nil {
		return nil, err
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if h, ok := ix.held[root]; ok || ix.closed {
		release() // another search got there first, or the connection ended
		if ok {
			return h.ix, nil
		}
		return i, nil
	}
	if ix.held == nil {
		ix.held = map[string]heldIndex{}
	}
	ix.held[root] = heldIndex{ix: i, release: release}
	return i, nil
}

// drop releases the index of a folder that left the workspace.
func (ix *indexes) drop(root string) {
	ix.mu.Lock()
	h, ok := ix.held[root]
	delete(ix.held, root)
	ix.mu.Unlock()
	if ok {
		h.release()
	}
}

// ready returns root's index if it is held already; if not, it starts
// acquiring it in the background (ended by ctx) and returns nil: an
// inline completion never waits for an index to be built.
func (ix *indexes) ready(ctx context.Context, pool *codeindex.Pool, root string) *codeindex.Index {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if h, ok := ix.held[root]; ok {
		return h.ix
	}
	if ix.closed || ix.warming[root] {
		return nil
	}
	if ix.warming == nil {
		ix.warming = map[string]bool{}
	}
	ix.warming[root] = true
	ix.wg.Add(1)
	go func() {
		defer ix.wg.Done()
		_, _ = ix.get(ctx, pool, root) // a failure shows in workspace/symbol
		ix.mu.Lock()
		delete(ix.warming, root)
		ix.mu.Unlock()
	}()
	return nil
}

func (ix *indexes) releaseAll() {
	ix.wg.Wait()
	ix.mu.Lock()
	held := ix.held
	ix.held, ix.closed = nil, true
	ix.mu.Unlock()
	for _, h := range held {
		h.release()
	}
}
