package agent

import (
	"context"
)

// run is the actor: it serves messages until the session is closed and no
// turn is left running (the turn's last messages still need an answer).
func (s *Session) run() {
	defer close(s.done)
	for !s.st.closed || s.st.turn != nil {
		select {
		case f := <-s.inbox:
			s.takeCancel() // a Cancel made before this message comes first
			f()
		case <-s.cancels:
			s.cancelTurn()
		}
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

// post runs f on the actor without waiting for it to run; once the actor
// has returned, f is dropped.
func (s *Session) post(f func()) {
	select {
	case s.inbox <- f:
	case <-s.done:
	}
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

// Prompt runs prompt (see Submit) and returns its stop reason.
func (s *Session) Prompt(ctx context.Context, prompt []ContentBlock) (StopReason, error) {
	a, err := s.Submit(ctx, prompt)
	a.Written()
	return a.StopReason, err
}

// Cancel ends the running turn, if any, with StopCancelled, and with it
// every prompt queued behind it. It never blocks: it leaves a token the
// actor takes before its next message (run), and the actor never waits on
// a turn, so the token is taken at once; a message the caller sends after
// Cancel (a new prompt) is handled after it.
func (s *Session) Cancel() {
	select {
	case s.cancels <- struct{}{}:
	default: // one is waiting already
	}
}

// takeCancel takes a waiting Cancel token, if any; on the actor.
func (s *Session) takeCancel() {
	select {
	case <-s.cancels:
		s.cancelTurn()
	default:
	}
}

// cancelTurn ends the running turn for a Cancel; on the actor.
func (s *Session) cancelTurn() {
	if t := s.st.turn; t != nil {
		t.cancelAll()
	}
}
