package acp

import "github.com/tandemhq/tandem/agent/command"

// CommandConfinement says whether this session's commands run in tandem's
// sandbox: not when the editor runs them in its own terminal, else as the
// local runner says.
func (h *host) CommandConfinement() command.Confinement {
	if h.caps.Terminal {
		return command.Confinement{Known: true, Why: "this editor runs commands in its own terminal, outside tandem's sandbox"}
	}
	if c, ok := h.local.(command.Confiner); ok {
		return c.CommandConfinement()
	}
	return command.Confinement{}
}
