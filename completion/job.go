package completion

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// docState is one document's completion state, guarded by Engine.mu.
type docState struct {
	cache suggestions
	job   *job // the model request in flight, nil when none
	// superseded is closed when a newer request for the document comes:
	// the request waiting on it answers empty at once.
	superseded chan struct{}
}

// supersede releases the request waiting now and returns the channel
// that releases the caller's in turn.
func (st *docState) supersede() <-chan struct{} {
	if st.superseded != nil {
		close(st.superseded)
	}
	st.superseded = make(chan struct{})
	return st.superseded
}

// job is one model request and the requests waiting for its answer.
type job struct {
	anchor
	cancel   context.CancelFunc
	waiters  int           // guarded by Engine.mu
	done     chan struct{} // closed when text and err are set
	finished chan struct{} // closed when the HTTP request is over
	partial  string        // what has streamed so far, guarded by Engine.mu
	text     string
	err      error
}

// prompt builds req's prompt and the shape of its answer. It reads the
// request's buffers, which the job must not keep, and may read files
// (ignore rules, settings), so it runs before Engine.mu is taken.
func (e *Engine) prompt(req *Request) (*Prompt, shape) {
	sh := shapeAt(req.After, e.cfg.MaxLines)
	tokens := singleTokens
	if sh.multiLine {
		tokens = multiTokens
	}
	p := assemble(req, e.budget, func(abs string) bool { return e.privacy.allowed(req.Root, abs, e.files) },
		e.instr.chunk(req.Root, e.budget.Instructions, e.cfg.Instructions), tokens)
	return p, sh
}

// start begins the model request for p, asked at a, after the document's
// previous one has ended, so that a document never has two at once.
// Called with e.mu held.
func (e *Engine) start(st *docState, a anchor, p *Prompt, sh shape) *job {
	prev := st.job
	if prev != nil {
		prev.cancel()
	}
	ctx, cancel := context.WithCancel(e.life)
	j := &job{anchor: a, cancel: cancel, waiters: 1, done: make(chan struct{}), finished: make(chan struct{})}
	st.job = j
	e.stats.Requests++
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		defer cancel()
		if prev != nil {
			<-prev.finished
		}
		e.run(ctx, st, j, p, sh)
	}()
	return j
}

// run sends the request and records its answer.
func (e *Engine) run(ctx context.Context, st *docState, j *job, p *Prompt, sh shape) {
	c := &collector{shape: sh}
	var err error
	if ctx.Err() == nil {
		e.inflight(+1)
		start := time.Now()
		err = e.send(ctx, j, p, c)
		e.inflight(-1)
		if err != nil && ctx.Err() == nil {
			e.log.Warn("completion request failed", "err", err, "after", time.Since(start))
		}
	} else {
		err = ctx.Err()
	}
	close(j.finished)
	text := ""
	if err == nil {
		text = c.result()
	} else if ctx.Err() != nil && !errors.Is(err, context.Canceled) {
		err = errors.Join(context.Canceled, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	j.text, j.err = text, err
	if err == nil {
		st.cache.add(entry{anchor: j.anchor, text: text})
	}
	if st.job == j {
		st.job = nil
	}
	close(j.done)
}

func (e *Engine) inflight(d int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stats.InFlight += d
	e.stats.MaxInFlight = max(e.stats.MaxInFlight, e.stats.InFlight)
}

// send streams the answer into c. A panic on the way (a wire meeting an
// answer it was not written for) fails this suggestion, not the process.
func (e *Engine) send(ctx context.Context, j *job, p *Prompt, c *collector) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("completion: internal error: %v", r)
		}
	}()
	return e.wire.stream(ctx, p, func(chunk string) bool {
		more := c.add(chunk)
		e.mu.Lock()
		j.partial = c.b.String()
		e.mu.Unlock()
		return more
	})
}
