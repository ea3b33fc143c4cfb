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
// every prompt queued behind it. It never blocks: it is the one call that
// does not go through the actor, a message to the turn (watchCancel).
func (s *Session) Cancel() {
	select {
	case s.cancels <- struct{}{}:
	default: // one is on its way already
	}
}

// watchCancel ends t with Cancel's cause when Cancel is called while it
// runs; it returns when the turn ends. A request made while no turn ran
// was taken away when the turn began (beginTurn).
func (t *turnRun) watchCancel() {
	select {
	case <-t.s.cancels:
		t.cancelAll()
	case <-t.ctx.Done():
	}
}
