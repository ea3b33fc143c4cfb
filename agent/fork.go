package agent

import (
	"context"
	"fmt"
)

// ForkSession copies stored session o.ID as it is now into a new session
// and opens the copy (without replaying it: the client has the history).
// The two go on independently. An open original is flushed first, so the
// copy has every event so far; a turn still running is cut off in the copy
// the way a crash would cut it, and loading repairs it the same way.
func (a *Agent) ForkSession(ctx context.Context, o SessionOptions) (*Session, error) {
	if a.cfg.Store == nil {
		return nil, fmt.Errorf("%w: sessions are not stored", ErrNoSession)
	}
	if s := a.openSession(o.ID); s != nil {
		if err := s.out.flush(); err != nil {
			return nil, fmt.Errorf("fork %s: %w", o.ID, err)
		}
	}
	m, err := a.cfg.Store.Fork(o.ID)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSession, err)
	}
	o.ID = m.ID
	sess, err := a.reopen(ctx, o, false)
	if err != nil {
		// A copy nobody can open (a bad cwd or directory in the request)
		// would only clutter the session list.
		if derr := a.cfg.Store.Delete(m.ID); derr != nil {
			a.log.Warn("removing a fork that did not open", "session", m.ID, "err", derr)
		}
		return nil, err
	}
	return sess, nil
}

// DeleteSession closes session id if it is open in this process and removes
// it from the store.
func (a *Agent) DeleteSession(id string) error {
	if a.cfg.Store == nil {
		return fmt.Errorf("%w: sessions are not stored", ErrNoSession)
	}
	if s := a.openSession(id); s != nil {
		if err := s.Close(); err != nil {
			a.log.Warn("closing a deleted session", "session", id, "err", err)
		}
	}
	if err := a.cfg.Store.Delete(id); err != nil {
		return fmt.Errorf("%w: %v", ErrNoSession, err)
	}
	return nil
}

// openSession finds the open session with id, or nil.
func (a *Agent) openSession(id string) *Session {
	a.sessionsMu.Lock()
	defer a.sessionsMu.Unlock()
	for s := range a.sessions {
		if s.id == id {
			return s
		}
	}
	return nil
}
