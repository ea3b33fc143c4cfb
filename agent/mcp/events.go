package mcp

import (
	"context"
	"sync"

	"github.com/tandemhq/tandem/agent/tools"
)

// event is one callback to make: a change of tools or a notice.
type event struct {
	add    []tools.Tool
	remove []string
	notice string
	offers bool // a server's prompts or resources changed
	// elicitDone is a url-mode elicitation the server says is complete.
	elicitDone *Elicitation
	// delivered, if set, is closed when the loop reaches the event
	// (flush's marker).
	delivered chan struct{}
}

// dispatcher calls OnTools and OnNotice from one goroutine, in the order
// the servers produced the events, so a removal never overtakes the
// addition it undoes. Servers only queue; a slow callback delays no server.
type dispatcher struct {
	onTools  func(add []tools.Tool, remove []string)
	onNotice func(msg string)
	onOffers func()
	// onElicitDone hears completed url-mode elicitations.
	onElicitDone func(Elicitation)

	mu      sync.Mutex // guards queue and stopped
	queue   []event
	stopped bool

	wake chan struct{} // buffered(1): something was queued or stop was called
	done chan struct{} // closed when loop returns
}

func newDispatcher(onTools func([]tools.Tool, []string), onNotice func(string), onOffers func(), onElicitDone func(Elicitation)) *dispatcher {
	d := &dispatcher{onTools: onTools, onNotice: onNotice, onOffers: onOffers, onElicitDone: onElicitDone,
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go d.loop()
	return d
}

func (d *dispatcher) push(e event) {
	d.mu.Lock()
	if d.stopped {
		d.mu.Unlock()
		return
	}
	d.queue = append(d.queue, e)
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// stop drops what is queued; no callback starts after it returns except
// one the loop had already begun. It does not wait for that one: the
// session may be closing from inside its own inbox, which the callback
// could be waiting on.
func (d *dispatcher) stop() {
	d.mu.Lock()
	d.stopped = true
	d.queue = nil
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

func (d *dispatcher) loop() {
	defer close(d.done)
	for range d.wake {
		for {
			d.mu.Lock()
			if d.stopped {
				d.mu.Unlock()
				return
			}
			if len(d.queue) == 0 {
				d.mu.Unlock()
				break
			}
			e := d.queue[0]
			d.queue = d.queue[1:]
			d.mu.Unlock()
			d.deliver(e)
		}
	}
}

func (d *dispatcher) deliver(e event) {
	if e.delivered != nil {
		close(e.delivered)
	}
	if e.notice != "" && d.onNotice != nil {
		d.onNotice(e.notice)
	}
	if (len(e.add) > 0 || len(e.remove) > 0) && d.onTools != nil {
		d.onTools(e.add, e.remove)
	}
	if e.offers && d.onOffers != nil {
		d.onOffers()
	}
	if e.elicitDone != nil && d.onElicitDone != nil {
		d.onElicitDone(*e.elicitDone)
	}
}

// flush returns once every event queued before it has been delivered, or
// when ctx ends or the dispatcher stops.
func (d *dispatcher) flush(ctx context.Context) {
	mark := make(chan struct{})
	d.push(event{delivered: mark}) // dropped once stopped; done is closed then
	select {
	case <-mark:
	case <-ctx.Done():
	case <-d.done:
	}
}
