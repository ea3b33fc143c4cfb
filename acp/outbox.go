package acp

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"
)

var errOutboxClosed = errors.New("acp: the session's update stream is closed")

// outbox is one session's FIFO of session/update notifications. Send never
// blocks the agent: it appends an encoded update; one goroutine per session
// writes them in order. Anything that must come after the updates queued so
// far (a client request, the prompt's response) calls flush first.
type outbox struct {
	w *wire

	mu       sync.Mutex // guards the fields below
	sid      string
	queue    [][]byte // encoded "update" objects not yet written
	queued   uint64   // updates ever queued
	written  uint64   // updates written (or dropped after a write error)
	progress chan struct{}
	wake     chan struct{}
	err      error // first write error; later updates are dropped
	started  bool
	closed   bool
	done     chan struct{}
}

func newOutbox(w *wire) *outbox {
	return &outbox{
		w:        w,
		progress: make(chan struct{}),
		wake:     make(chan struct{}, 1),
		done:     make(chan struct{}),
	}
}

// start binds the outbox to its session id and starts its writer; updates
// queued before start wait for it. The writer stops when ctx ends or close
// is called, after writing what was queued.
func (o *outbox) start(ctx context.Context, sid string) {
	o.mu.Lock()
	if o.started || o.closed {
		o.mu.Unlock()
		return
	}
	o.sid, o.started = sid, true
	o.mu.Unlock()
	go o.run(ctx)
}

// push queues one encoded update object.
func (o *outbox) push(update []byte) {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return
	}
	o.queue = append(o.queue, update)
	o.queued++
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// pushValue encodes v (an agent.Update or an SDK update) and queues it.
func (o *outbox) pushValue(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	o.push(b)
	return nil
}

// flush waits until every update queued before the call is written.
func (o *outbox) flush(ctx context.Context) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	target := o.queued
	for o.written < target {
		ch := o.progress
		o.mu.Unlock()
		select {
		case <-ch:
			o.mu.Lock()
		case <-o.done:
			o.mu.Lock()
			if o.written < target {
				if o.err != nil {
					return o.err
				}
				return errOutboxClosed
			}
		case <-ctx.Done():
			o.mu.Lock()
			return ctx.Err()
		}
	}
	return o.err
}

// close stops the writer once what is queued has been written.
func (o *outbox) close() {
	o.mu.Lock()
	already := o.closed
	o.closed = true
	started := o.started
	o.mu.Unlock()
	if already {
		return
	}
	if !started {
		close(o.done)
		return
	}
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// wait blocks until the writer has stopped, at most d.
func (o *outbox) wait(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-o.done:
	case <-t.C:
	}
}

func (o *outbox) run(ctx context.Context) {
	defer close(o.done)
	prefix, _ := json.Marshal(o.sid)
	prefix = append([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":`), prefix...)
	prefix = append(prefix, `,"update":`...)
	for {
		o.mu.Lock()
		batch := o.queue
		o.queue = nil
		closed := o.closed
		o.mu.Unlock()
		for _, u := range batch {
			o.write(prefix, u)
		}
		if len(batch) > 0 {
			continue
		}
		if closed {
			return
		}
		select {
		case <-o.wake:
		case <-ctx.Done():
			return
		}
	}
}

func (o *outbox) write(prefix, update []byte) {
	o.mu.Lock()
	failed := o.err != nil
	o.mu.Unlock()
	var err error
	if !failed {
		msg := make([]byte, 0, len(prefix)+len(update)+3)
		msg = append(append(append(msg, prefix...), update...), "}}\n"...)
		_, err = o.w.Write(msg)
	}
	o.mu.Lock()
	if err != nil && o.err == nil {
		o.err = err
	}
	o.written++
	close(o.progress)
	o.progress = make(chan struct{})
	o.mu.Unlock()
}
