package acp

import "github.com/tandemhq/tandem/agent"

// showsCompaction reports whether the last initialize's client advertised
// clientCapabilities.session.compaction: only such a client may receive
// compaction_update (the unstable schema says so of the update itself,
// whatever else the client opted into).
func (s *server) showsCompaction() bool {
	s.capsMu.Lock()
	defer s.capsMu.Unlock()
	return s.compaction
}

// fit leaves out of u what this session's client did not opt into: a
// compaction becomes a tool call for a client without compaction
// entities, and a tool call's model-facing name, which only the
// unstable schema defines, goes only to clients of that schema.
func (h *host) fit(u agent.Update) agent.Update {
	if !h.compaction {
		u = u.ToolCallForm()
	}
	if !h.unstable && u.Tool != nil && u.Tool.Name != "" {
		tc := *u.Tool
		tc.Name = ""
		u.Tool = &tc
	}
	return u
}
