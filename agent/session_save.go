package agent

import "context"

// reportSave tells the user when the session log stops being saved (a
// full disk) and when it is saved again, once each, from the outcome of
// the turn's last flush: a turn on a full disk still ends normally, since
// the store keeps what the disk refused and writes it once there is room
// (store.Log), and repeating the failure every turn would only be noise.
// It reports whether it sent a notice. The caller must not be the actor.
func (p *historyLog) reportSave(err error) bool {
	s := p.s
	var was bool
	if s.do(context.Background(), func() { was, p.unsaved = p.unsaved, err != nil }) != nil {
		return false
	}
	switch {
	case err != nil && !was:
		s.notice(err.Error() + ". The session goes on: what could not be saved is kept in memory and written once there is room (if tandem stops first, it is lost).")
	case err == nil && was:
		s.notice("The session is being saved again, what was waiting included.")
	default:
		return false
	}
	return true
}
