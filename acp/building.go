package acp

import (
	"context"

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
}

// Build runs build on a goroutine of its own, which ends when build
// returns; build must not wait for anything Serve does.
func Build(build func() (*agent.Agent, error)) *Building {
	b := &Building{done: make(chan struct{})}
	go func() {
		defer close(b.done)
		b.a, b.err = build()
	}()
	return b
}

// built is a Building that is already done.
func built(a *agent.Agent) *Building {
	b := &Building{done: make(chan struct{}), a: a}
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
