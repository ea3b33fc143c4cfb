package agent

import (
	"context"
	"fmt"
	"sync"

	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/codeindex"
)

// extraState holds the per-session services beside the conversation:
// workspace instructions, the code index and MCP connections.
type extraState struct {
	// instrMu guards instr: the session goroutine reconciles while front
	// doors list what is loaded.
	instrMu    sync.Mutex
	instr      *instructions.Tracker
	reconciled bool // a resumed session's offline changes were appended

	touchedMu sync.Mutex // guards touched: parallel read tools add to it
	touched   []string

	indexMu      sync.Mutex // guards the index fields
	index        *codeindex.Index
	indexRelease func()
	indexStarted bool
	indexCancel  context.CancelFunc

	mcpMu sync.Mutex // guards mcp
	mcp   []*mcp.Manager
	// projectMCP are servers of <root>/.tandem/mcp.json waiting for the
	// user's consent; owned by the session goroutine.
	projectMCP []mcp.Server
}

func (s *Session) startExtras(ctx context.Context, servers []mcp.Server) {
	if s.extra.instr == nil {
		s.extra.instr = instructions.NewTracker(s.a.instructionsConfig(), s.root)
	}
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
	for _, sv := range project {
		if !names[sv.Name] {
			s.extra.projectMCP = append(s.extra.projectMCP, sv)
		}
	}
	s.startMCP(ctx, trusted)
}

func (s *Session) stopExtras() {
	s.extra.mcpMu.Lock()
	managers := s.extra.mcp
	s.extra.mcp = nil
	s.extra.mcpMu.Unlock()
	for _, m := range managers {
		if err := m.Close(); err != nil {
			s.a.log.Warn("closing MCP servers", "session", s.id, "err", err)
		}
	}
	s.extra.indexMu.Lock()
	defer s.extra.indexMu.Unlock()
	if s.extra.indexCancel != nil {
		s.extra.indexCancel()
	}
	if s.extra.indexRelease != nil {
		s.extra.indexRelease()
		s.extra.indexRelease = nil
	}
}

// notice tells the user about a problem outside the conversation (an MCP
// server that failed). It is shown, logged and never sent to the model.
func (s *Session) notice(msg string) {
	s.a.log.Warn("session notice", "session", s.id, "msg", msg)
	s.emit(Update{Type: AgentMessageChunk, Chunk: &ContentBlock{Type: "text", Text: "\n[tandem] " + msg + "\n"}})
}
