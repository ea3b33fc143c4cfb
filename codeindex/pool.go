package codeindex

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
)

// ErrPoolClosed is returned by Acquire after Close.
var ErrPoolClosed = errors.New("code index pool is closed")

// Pool shares one Index per root between sessions. An index is built once,
// by the pool, however many sessions ask for it meanwhile, and dropped when
// the last session releases it. Safe for concurrent use.
type Pool struct {
	opts Options

	ctx    context.Context // cancelled by Close; builds run under it
	cancel context.CancelFunc
	builds sync.WaitGroup

	// mu guards entries and closed.
	mu      sync.Mutex
	entries map[string]*poolEntry
	closed  bool
}

type poolEntry struct {
	ready chan struct{} // closed when ix or err is set
	ix    *Index
	err   error
	refs  int
}

// NewPool returns a pool whose indexes use opts.
func NewPool(opts Options) *Pool {
	ctx, cancel := context.WithCancel(context.Background())
	return &Pool{opts: opts, ctx: ctx, cancel: cancel, entries: map[string]*poolEntry{}}
}

// Acquire returns the index of root, building it if no session holds it.
// The caller must call release exactly once when done; ctx bounds only the
// wait, since other sessions may be waiting for the same build.
func (p *Pool) Acquire(ctx context.Context, root string) (ix *Index, release func(), err error) {
	key, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, err
	}
	if r, err := filepath.EvalSymlinks(key); err == nil {
		key = r
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, nil, ErrPoolClosed
	}
	e := p.entries[key]
	if e == nil {
		e = &poolEntry{ready: make(chan struct{})}
		p.entries[key] = e
		p.builds.Add(1)
		go p.build(key, e)
	}
	e.refs++
	p.mu.Unlock()

	var once sync.Once
	release = func() { once.Do(func() { p.release(key, e) }) }
	select {
	case <-e.ready:
	case <-ctx.Done():
		release()
		return nil, nil, ctx.Err()
	}
	if e.err != nil {
		release()
		return nil, nil, e.err
	}
	return e.ix, release, nil
}

// build runs in its own goroutine, owned by the pool and stopped by Close.
func (p *Pool) build(key string, e *poolEntry) {
	defer p.builds.Done()
	ix, err := Open(p.ctx, key, p.opts)
	p.mu.Lock()
	e.ix, e.err = ix, err
	p.mu.Unlock()
	close(e.ready)
}

func (p *Pool) release(key string, e *poolEntry) {
	p.mu.Lock()
	e.refs--
	drop := e.refs == 0
	if drop && p.entries[key] == e {
		delete(p.entries, key)
	}
	p.mu.Unlock()
	if !drop {
		return
	}
	// The last user is gone: keep what it learned, then let the index go.
	// A build still running saves its own cache when it ends.
	select {
	case <-e.ready:
		if e.ix != nil {
			if err := e.ix.Flush(); err != nil {
				e.ix.log.Warn("code index cache not saved", "root", key, "err", err)
			}
		}
	default:
	}
}

// Close stops builds in progress, saves every open index's cache and
// refuses further Acquires. Indexes already handed out stay usable.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	entries := p.entries
	p.entries = map[string]*poolEntry{}
	p.mu.Unlock()
	p.cancel()
	p.builds.Wait()
	var errs []error
	for _, e := range entries {
		if e.ix != nil {
			errs = append(errs, e.ix.Flush())
		}
	}
	return errors.Join(errs...)
}
