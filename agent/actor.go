package agent

import (
	"context"
)

// run is the actor: it serves messages until the session is closed and no
// turn is left running (the turn's last messages still need an answer).
func (s *Session) run() {
	defer close(s.done)
	for !s.st.closed || s.st.turn != nil {
		(<-s.inbox)()
	}
	s.retire()
}

// do runs f on the actor and waits for it. It fails with ErrClosed once
// the actor has returned, and with ctx's error if ctx ends first.
func (s *Session) do(ctx context.Context, f func()) error {
	ran := make(chan struct{})
	select {
	case s.inbox <- func() { f(); close(ran) }:
	case <-s.done:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	<-ran
	return nil
}

// read runs a query on the actor; once the actor has returned, nothing
// changes st any more and the query reads it directly.
func (s *Session) read(f func()) {
	if s.do(context.Background(), f) != nil {
		f()
	}
}

// change runs f on the actor unless the session is closed.
func (s *Session) change(f func()) error {
	var closed bool
	err := s.do(context.Background(), func() {
		if closed = s.st.closed; !closed {
			f()
		}
	})
	if err == nil && closed {
		err = ErrClosed
	}
	return err
}

// Prompt runs one turn and returns when its last update has been sent.
// A second Prompt while one runs fails with ErrBusy. Cancellation (Cancel or
// ctx) ends the turn with StopCancelled, not an error.
func (s *Session) Prompt(ctx context.Context, prompt []ContentBlock) (StopReason, error) {
	var (
		t   *turnRun
		err error
	)
	if derr := s.do(ctx, func() { t, err = s.beginTurn(ctx, prompt) }); derr != nil {
		return "", derr
	}
	if err != nil {
		return "", err
	}
	r := <-t.result
	return r.reason, s.a.cfg.Redact.Error(r.err)
}

// Cancel ends the running turn, if any, with StopCancelled. It never blocks:
// it is the one call that does not go through the actor.
func (s *Session) Cancel() {
	if f := s.cancelTurn.Load(); f != nil {
		(*f)()
	}
}
