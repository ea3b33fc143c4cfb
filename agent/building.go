package agent

import (
	"context"
	"sync"
)

// Building is an agent being built on a goroutine of its own, so that a
// front door (tandem acp, tandem lsp) answers what needs no agent, its
// initialize, meanwhile: loading the configuration, opening the session
// store and finding plugins then no longer delay an editor's first answer.
type Building struct {
	done chan struct{}
	a    *Agent
	err  error

	mu   sync.Mutex // guards then and ran
	then []func(*Agent)
	ran  bool // the build is over: WhenBuilt runs fn itself
}

// Build runs build on a goroutine of its own, which ends when build
// returns; build must not wait for anything the front door does.
func Build(build func() (*Agent, error)) *Building {
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

// Built is a Building that is already done: a.
func Built(a *Agent) *Building {
	b := &Building{done: make(chan struct{}), a: a, ran: true}
	close(b.done)
	return b
}

// WhenBuilt runs fn with the agent once it is built, without waiting for
// it: at once when it is, else on the building goroutine when it is done.
// After a failed build fn never runs.
func (b *Building) WhenBuilt(fn func(*Agent)) {
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

// Agent waits until the agent is built and returns it, or build's error,
// or ctx's error if ctx ends first. A finished build wins over an ended
// ctx: a failed build ends the connection's ctx (Watch), and the requests
// waiting then get the build's reason, not a cancellation.
func (b *Building) Agent(ctx context.Context) (*Agent, error) {
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

// Watch calls cancel, which must end ctx, when the build fails before ctx
// ends, so that a connection serving under ctx stops; when answered is not
// nil, only once it is closed (the client has its initialize answer, so it
// hears that tandem started before it learns why it stopped) or ctx ends.
// The function it returns waits for the watch to end, which needs ctx to
// have ended, and returns the build's error if it was the reason.
func (b *Building) Watch(ctx context.Context, answered <-chan struct{}, cancel context.CancelFunc) (reason func() error) {
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, e := b.Agent(ctx); e != nil && ctx.Err() == nil {
			err = e
			if answered != nil {
				select {
				case <-answered:
				case <-ctx.Done():
				}
			}
			cancel()
		}
	}()
	return func() error {
		<-done
		return err
	}
}
