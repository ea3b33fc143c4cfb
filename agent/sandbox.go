package agent

import (
	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/tools"
)

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
// t are the session's switches.
func (p *permissions) unconfined(t Toggles) string {
	s := p.s
	if t.SandboxOff && s.sandboxToggle() {
		return toggleSandboxOff
	}
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

// sandboxTitle says in a command's permission prompt why full-auto asks
// for it: the user chose a mode that asks for nothing, and would otherwise
// not know that it is the missing sandbox that asks.
func sandboxTitle(m Mode, req PermissionRequest, c policy.Call) PermissionRequest {
	if c.Group == tools.GroupExecute && c.Unconfined != "" && !c.Unsandboxed && m == ModeFullAuto {
		req.ToolCall.Title += " (full-auto asks: " + c.Unconfined + ")"
	}
	return req
}
