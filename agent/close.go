package agent

import (
	"context"
	"errors"
	"fmt"
)

// ErrAgentClosed is returned when a session is opened after Agent.Close.
var ErrAgentClosed = errors.New("agent is shutting down")

// track registers an open session; it fails once the agent is closing, so
// nothing Close did not see can start.
func (a *Agent) track(s *Session) error {
	a.sessionsMu.Lock()
	defer a.sessionsMu.Unlock()
	if a.closed {
		return ErrAgentClosed
	}
	a.sessions[s] = struct{}{}
	return nil
}

// beginOpen marks a session whose goroutines are about to start, so that
// Close waits until it is tracked (and closed by Close) or has closed
// itself (track failed): Close must not return while a session it did not
// see is still starting MCP servers. It fails once the agent is closing.
func (a *Agent) beginOpen() (done func(), err error) {
	a.sessionsMu.Lock()
	defer a.sessionsMu.Unlock()
	if a.closed {
		return nil, ErrAgentClosed
	}
	a.opening.Add(1)
	return a.opening.Done, nil
}

func (a *Agent) forget(s *Session) {
	a.sessionsMu.Lock()
	delete(a.sessions, s)
	a.sessionsMu.Unlock()
}

// Close shuts the agent down: it closes every open session (ending their
// turns, commands and MCP servers), those being opened included, and then
// the shared code indexes. Front
// doors call it when they exit, stdin EOF included. It returns when all is
// stopped, or with ctx's error if that takes longer than ctx allows.
func (a *Agent) Close(ctx context.Context) error {
	a.sessionsMu.Lock()
	a.closed = true
	a.sessionsMu.Unlock()
	// The background work either never starts now or is stopped here.
	a.startBackground.Do(func() { close(a.backgroundDone) })
	a.stopBackground()
	<-a.backgroundDone

	done := make(chan error, 1)
	go func() {
		// No session opens now; those opening are tracked or closed when
		// this returns.
		a.opening.Wait()
		a.sessionsMu.Lock()
		open := make([]*Session, 0, len(a.sessions))
		for s := range a.sessions {
			open = append(open, s)
		}
		a.sessionsMu.Unlock()
		errs := make(chan error, len(open))
		for _, s := range open {
			go func() { errs <- s.Close() }()
		}
		var all []error
		for range open {
			all = append(all, <-errs)
		}
		if a.cfg.Indexes != nil {
			all = append(all, a.cfg.Indexes.Close())
		}
		done <- errors.Join(all...)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("closing the agent: %w", ctx.Err())
	}
}
