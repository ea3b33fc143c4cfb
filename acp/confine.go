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

// LiveCommandOutput says whether the client shows the output of the
// commands tandem runs itself while they run: it sent
// clientCapabilities._meta.terminal_output: true (codex-acp's and
// claude-agent-acp's convention) and has no terminals of its own, which
// would run them instead. Read leniently, as _meta is: only true counts.
func (h *host) LiveCommandOutput() bool {
	on, _ := h.caps.Meta["terminal_output"].(bool)
	return on && !h.caps.Terminal
}
