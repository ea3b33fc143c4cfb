package agent

import (
	"context"
	"fmt"

	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/mcp"
)

// extraState holds the per-session services beside the conversation:
// workspace instructions, the code index and MCP connections. It is part
// of the actor's state; goroutines that build these services hand their
// results to the actor in a message.
type extraState struct {
	// instr is lent to the running turn (nil meanwhile); scopes and
	// baseline are what the turn last published, for front doors.
	instr    *instrState
	scopes   []instructions.Scope
	baseline bool

	mcp []*mcp.Manager
	// projectMCP are servers of <root>/.tandem/mcp.json waiting for the
	// user's consent.
	projectMCP []mcp.Server
	// mcpWaited names the MCP servers a turn has waited for already
	// (session_mcpwait.go); none is waited for twice.
	mcpWaited map[string]bool
}

// instrState is the instructions tracker and what the session did with it.
type instrState struct {
	tr         *instructions.Tracker
	roots      []rootInstr // the additional roots' trackers, in order
	reconciled bool        // a resumed session's offline changes were appended
}

// startExtras loads the MCP configuration and starts the trusted servers.
// It runs after the actor has started and reaches it by messages.
func (s *Session) startExtras(ctx context.Context, servers []mcp.Server) {
	var user, project []mcp.Server
	if s.a.cfg.Home != "" {
		var err error
		if user, err = mcp.LoadFile(mcp.UserFile(s.a.cfg.Home)); err != nil {
			s.notice(fmt.Sprintf("some MCP servers in %s were skipped: %v", mcp.UserFile(s.a.cfg.Home), err))
		}
		if project, err = mcp.LoadFile(mcp.ProjectFile(s.root)); err != nil {
			s.notice(fmt.Sprintf("some MCP servers in %s were skipped: %v", mcp.ProjectFile(s.root), err))
		}
	}
	// The editor's servers win a name clash, then the user's.
	trusted := mcp.Merge(user, servers)
	names := map[string]bool{}
	for _, sv := range trusted {
		names[sv.Name] = true
	}
	var waiting []mcp.Server
	for _, sv := range project {
		if !names[sv.Name] {
			waiting = append(waiting, sv)
		}
	}
	s.do(context.Background(), func() { s.st.extra.projectMCP = waiting })
	s.startMCP(ctx, trusted)
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
	x := &s.st.extra
	s.retired = retiredServices{mcp: x.mcp, indexes: s.index.roots}
	x.mcp, s.index.roots = nil, nil
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
