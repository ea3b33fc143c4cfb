package agent

import "github.com/tandemhq/tandem/agent/command"

// confinementOf asks h whether it confines the commands it runs; a host
// that cannot say is treated as it always was (see command.Confinement).
func confinementOf(h Host) command.Confinement {
	if c, ok := h.(command.Confiner); ok {
		return c.CommandConfinement()
	}
	return command.Confinement{}
}

// unconfined is why this session's commands would run outside the
// sandbox, for the policy; "" when they run inside or the host cannot tell.
func (s *Session) unconfined() string {
	if c := s.confinement; c.Known && !c.Confined {
		return c.Why
	}
	return ""
}

// noticeSandbox tells the user, once per session, that commands run
// unconfined here although they would have been sandboxed, and what that
// changes.
func (s *Session) noticeSandbox() {
	if c := s.confinement; c.Notice {
		s.notice("Commands are not sandboxed: " + c.Why + ". Full-auto mode asks before each command instead of running it unasked.")
	}
}
