package agent

import (
	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/mcp"
)

// instrState is the instructions tracker and what the session did with it.
type instrState struct {
	tr         *instructions.Tracker
	roots      []rootInstr // the additional roots' trackers, in order
	reconciled bool        // a resumed session's offline changes were appended
}

// retiredServices are the services the actor gives up as it returns, for
// shutdown to stop.
type retiredServices struct {
	mcp     []*mcp.Manager
	indexes map[string]*rootIndex
}

// retire is the actor's last act: it takes the services out of st, so st
// never changes once done is closed (read, which anyone may call at any
// time, relies on that) and stopExtras need not write it.
func (s *Session) retire() {
	s.retired = retiredServices{mcp: s.mcp.running, indexes: s.index.roots}
	s.mcp.running, s.index.roots = nil, nil
}

// stopExtras stops the services the actor retired, once it has returned
// (their goroutines may be waiting on it, so it must not run on the actor).
func (s *Session) stopExtras() {
	for _, m := range s.retired.mcp {
		if err := m.Close(); err != nil {
			s.a.log.Warn("closing MCP servers", "session", s.id, "err", err)
		}
	}
	stopIndexes(s.retired.indexes)
	s.retired = retiredServices{}
}

// notice tells the user about a problem outside the conversation (an MCP
// server that failed). It is shown, logged and never sent to the model.
func (s *Session) notice(msg string) {
	s.a.log.Warn("session notice", "session", s.id, "msg", msg)
	s.emit(Update{Type: AgentMessageChunk, Chunk: &ContentBlock{Type: "text", Text: "\n[tandem] " + msg + "\n"}})
}
