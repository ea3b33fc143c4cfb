package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/agent/tools"
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

// startMCP connects servers in the background; their tools join the
// catalog as they become ready.
func (s *Session) startMCP(ctx context.Context, servers []mcp.Server) {
	if len(servers) == 0 {
		return
	}
	m := mcp.Start(ctx, mcp.Options{
		Root:    s.root,
		Servers: servers,
		Log:     s.a.log.With("session", s.id),
		OnTools: func(add []tools.Tool, remove []string) {
			s.RemoveTools(remove...)
			s.AddTools(add...)
		},
		OnNotice: s.notice,
	})
	s.extra.mcpMu.Lock()
	s.extra.mcp = append(s.extra.mcp, m)
	s.extra.mcpMu.Unlock()
}

// askProjectMCP asks, once, before starting the servers a repository's
// .tandem/mcp.json names: they are commands from a clone, which is no
// reason to run them unasked (.tandem/ is protected for the same reason).
func (s *Session) askProjectMCP(ctx context.Context) error {
	pending := s.extra.projectMCP
	s.extra.projectMCP = nil
	if len(pending) == 0 {
		return nil
	}
	var list strings.Builder
	for _, sv := range pending {
		fmt.Fprintf(&list, "- %s\n", sv)
	}
	d, err := s.host.RequestPermission(ctx, PermissionRequest{
		ToolCall: ToolCall{ID: "mcp-project-servers", Title: "Start the MCP servers of " + s.display(mcp.ProjectFile(s.root)),
			Kind: tools.KindExecute, Status: ToolPending, Content: []ToolContent{TextContent(list.String())}},
		Options: DefaultPermissionOptions(),
	})
	switch {
	case err != nil:
		return err
	case d.Cancelled:
		return context.Canceled
	case d.Kind == AllowOnce || d.Kind == AllowAlways:
		s.startMCP(context.WithoutCancel(ctx), pending)
	default:
		s.notice("The project's MCP servers were not started.")
	}
	return nil
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

func (a *Agent) instructionsConfig() instructions.Config {
	if a.cfg.Instructions != nil {
		return *a.cfg.Instructions
	}
	return instructions.DefaultConfig(a.cfg.Home)
}

// warmIndex starts building the root's code index in the background, once.
// It is not done at session start: a session opened in a huge directory
// that never asks about code should not pay for indexing it.
func (s *Session) warmIndex() {
	if s.a.cfg.Indexes == nil {
		return
	}
	s.extra.indexMu.Lock()
	defer s.extra.indexMu.Unlock()
	if s.extra.indexStarted {
		return
	}
	s.extra.indexStarted = true
	ctx, cancel := context.WithCancel(context.Background())
	s.extra.indexCancel = cancel
	go func() {
		ix, release, err := s.a.cfg.Indexes.Acquire(ctx, s.root)
		if err != nil {
			if ctx.Err() == nil {
				s.a.log.Warn("code index", "session", s.id, "root", s.root, "err", err)
			}
			return
		}
		s.extra.indexMu.Lock()
		defer s.extra.indexMu.Unlock()
		if ctx.Err() != nil { // the session closed meanwhile
			release()
			return
		}
		s.extra.index, s.extra.indexRelease = ix, release
	}()
}

// index returns the root's code index when it is built, else nil (the
// tool then parses what it lists on its own).
func (s *Session) index() *codeindex.Index {
	s.extra.indexMu.Lock()
	defer s.extra.indexMu.Unlock()
	return s.extra.index
}

// noteTouched remembers paths a tool call read or wrote successfully.
func (s *Session) noteTouched(paths []string) {
	s.extra.touchedMu.Lock()
	s.extra.touched = append(s.extra.touched, paths...)
	s.extra.touchedMu.Unlock()
}

func (s *Session) takeTouched() []string {
	s.extra.touchedMu.Lock()
	defer s.extra.touchedMu.Unlock()
	t := s.extra.touched
	s.extra.touched = nil
	return t
}

// beforeFirstRequest adds the workspace instructions baseline when the
// history the model sees does not carry one; on a resumed session it
// appends what changed while tandem was away instead.
func (s *Session) beforeFirstRequest(ctx context.Context) error {
	s.warmIndex()
	if err := s.askProjectMCP(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.a.log.Warn("asking to start project MCP servers", "session", s.id, "err", err)
	}
	s.extra.instrMu.Lock()
	defer s.extra.instrMu.Unlock()
	tr := s.extra.instr
	if !tr.Enabled() {
		return nil
	}
	var b *instructions.Batch
	var err error
	if tr.HasBaseline() {
		if !s.extra.reconciled {
			b, err = tr.Reconcile(ctx, nil)
			s.extra.reconciled = true
		}
	} else {
		b, err = tr.Baseline(ctx)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// Instructions are guidance: a failure to read them must not stop
		// the user's prompt. Say so and go on.
		s.a.log.Warn("workspace instructions", "session", s.id, "err", err)
		return nil
	}
	if b != nil {
		s.record(recInstructions, b.Meta)
		s.appendHistory(llm.Text(llm.RoleUser, b.Text))
	}
	return nil
}

// instructionsAfterTools reconciles workspace instructions along the paths
// the last tool calls touched, returning the text to add after their
// results ("" when nothing changed).
func (s *Session) instructionsAfterTools(ctx context.Context) string {
	touched := s.takeTouched()
	s.extra.instrMu.Lock()
	defer s.extra.instrMu.Unlock()
	tr := s.extra.instr
	if len(touched) == 0 || !tr.Enabled() {
		return ""
	}
	b, err := tr.Reconcile(ctx, touched)
	if err != nil {
		if ctx.Err() == nil {
			s.a.log.Warn("workspace instructions", "session", s.id, "err", err)
		}
		return ""
	}
	if b == nil {
		return ""
	}
	s.record(recInstructions, b.Meta)
	return b.Text
}

// restoreInstructions rebuilds instruction state from logged metadata.
func (s *Session) restoreInstructions(raw []json.RawMessage) {
	s.extra.instr = instructions.NewTracker(s.a.instructionsConfig(), s.root)
	var metas []instructions.Meta
	for _, r := range raw {
		var m instructions.Meta
		if err := json.Unmarshal(r, &m); err != nil {
			s.a.log.Warn("session log: bad instructions record skipped", "session", s.id, "err", err)
			continue
		}
		metas = append(metas, m)
	}
	if err := s.extra.instr.Restore(metas); err != nil {
		s.a.log.Warn("restoring workspace instructions", "session", s.id, "err", err)
	}
}

// Instructions lists the instruction files the session has loaded.
func (s *Session) Instructions() []instructions.Scope {
	s.extra.instrMu.Lock()
	defer s.extra.instrMu.Unlock()
	return s.extra.instr.Loaded()
}

func (s *Session) describeInstructions() string {
	s.extra.instrMu.Lock()
	scopes, loaded := s.extra.instr.Loaded(), s.extra.instr.HasBaseline()
	s.extra.instrMu.Unlock()
	if len(scopes) == 0 {
		if !loaded {
			return "No workspace instructions are loaded yet: they load with the first prompt."
		}
		return "No workspace instruction files apply to this session."
	}
	var b strings.Builder
	b.WriteString("Workspace instructions loaded in this session:\n")
	for _, sc := range scopes {
		fmt.Fprintf(&b, "- %s (%d bytes, sha1 %.12s)", sc.Path, sc.Bytes, sc.Digest)
		if sc.Truncated {
			b.WriteString(", truncated to fit the budget")
		}
		b.WriteString("\n")
	}
	return b.String()
}
