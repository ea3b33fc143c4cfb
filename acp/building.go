package acp

import (
	"context"
	"sync"

	"github.com/tandemhq/tandem/agent"
)

// Building is an agent being built on a goroutine of its own, so that Serve
// answers what needs no agent (initialize) meanwhile: loading the
// configuration, opening the session store and finding plugins then no
// longer delay an editor's first answer.
type Building struct {
	done chan struct{}
	a    *agent.Agent
	err  error

	mu   sync.Mutex // guards then and ran
	then []func(*agent.Agent)
	ran  bool // the build is over: whenBuilt runs fn itself
}

// Build runs build on a goroutine of its own, which ends when build
// returns; build must not wait for anything Serve does.
func Build(build func() (*agent.Agent, error)) *Building {
	b := &Building{done: make(chan struct{})}
	go func() {
		a, err := build()
		b.a, b.err = a, err
		close(b.done)
		b.mu.Lock()
		then := b.then
		b.then, b.ran = nil, true
		b.mu.Unlock()
		if err == nil {
			for _, fn := range then {
				fn(a)
			}
		}
	}()
	return b
}

// whenBuilt runs fn with the agent once it is built, without waiting for
// it: at once when it is, else on the building goroutine when it is done.
// After a failed build fn never runs.
func (b *Building) whenBuilt(fn func(*agent.Agent)) {
	b.mu.Lock()
	if !b.ran {
		b.then = append(b.then, fn)
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	if b.err == nil {
		fn(b.a)
	}
}

// built is a Building that is already done.
func built(a *agent.Agent) *Building {
	b := &Building{done: make(chan struct{}), a: a, ran: true}
	close(b.done)
	return b
}

// Agent waits until the agent is built and returns it, or build's error,
// or ctx's error if ctx ends first. A finished build wins over an ended
// ctx: a failed build ends Serve's ctx, and the requests waiting then get
// the build's reason, not a cancellation.
func (b *Building) Agent(ctx context.Context) (*agent.Agent, error) {
	select {
	case <-b.done:
	case <-ctx.Done():
		select {
		case <-b.done:
		default:
			return nil, ctx.Err()
		}
	}
	return b.a, b.err
}
