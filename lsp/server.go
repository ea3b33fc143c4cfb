package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/completion"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// ErrExitWithoutShutdown is Serve's result when the client sent exit (or
// closed the stream) without shutdown first; LSP asks for exit code 1.
var ErrExitWithoutShutdown = errors.New("lsp: exit without a prior shutdown request")

// Options configure a Server.
type Options struct {
	// Agent runs the sessions. Either it or Building is required.
	Agent *agent.Agent
	// Building, when Agent is nil, is the agent still being built: the
	// server reads and answers initialize meanwhile, a method that needs
	// the agent waits for it, and if building fails Serve stops and returns
	// that error. The agent stays the caller's to close.
	Building *agent.Building
	// Log receives diagnostics; nil discards them.
	Log *slog.Logger
	// Version is reported in serverInfo.
	Version string
	// Completion serves textDocument/inlineCompletion; nil: completions
	// are not configured and the capability is not advertised. The
	// engine stays the caller's to close.
	Completion *completion.Engine
	// MaxFrameBytes caps one message the server writes (config.json
	// maxFrameBytes). Zero: maxMessage, which is higher than ACP's
	// default because whole-file edits of large buffers go out as one
	// workspace/applyEdit.
	MaxFrameBytes int
}

// lifecycle is where the server is in LSP's initialize/shutdown dance.
type lifecycle int

const (
	stateNew lifecycle = iota
	stateRunning
	stateShutdown
)

// Server is one LSP connection: its documents, its client's capabilities
// and the sessions it started.
type Server struct {
	building *agent.Building // the agent: agentFor waits for it
	log      *slog.Logger
	version  string
	maxOut   int // Options.MaxFrameBytes
	conn     *conn
	endConn  context.CancelFunc // ends the connection (exit)
	docs     *documents
	indexes  indexes // workspace folders' code indexes, for workspace/symbol
	complete *completion.Engine

	stateMu sync.Mutex // guards state, caps, enc, encName, folders, defaultMode
	state   lifecycle
	caps    clientCaps
	enc     edits.Encoding
	encName string
	folders []string // workspace folder paths, first is the default cwd
	// defaultMode is the mode of sessions created without one.
	defaultMode string
	progress    int // last progress token number

	sessionsMu sync.Mutex // guards sessions, sessionSeq
	sessions   map[string]*session
	sessionSeq uint64

	// answered is closed once initialize's answer has been written: an
	// agent that cannot be built ends the connection only then, so the
	// client hears that tandem started before it learns why it stopped.
	answered     chan struct{}
	answeredOnce sync.Once

	// baseCtx lives as long as the connection; sessions run under it.
	baseCtx context.Context

	table map[string]method // the dispatch table, built once

	nextEditSeq atomic.Uint64 // numbers tandem/nextEdit suggestions
}

// NewServer returns a server for one connection.
func NewServer(o Options) *Server {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := o.Building
	if o.Agent != nil {
		b = agent.Built(o.Agent)
	}
	s := &Server{
		building: b,
		log:      log,
		version:  o.Version,
		maxOut:   o.MaxFrameBytes,
		complete: o.Completion,
		docs:     newDocuments(),
		answered: make(chan struct{}),
		enc:      edits.UTF16,
		sessions: make(map[string]*session),
	}
	s.table = s.methods()
	return s
}

// Serve speaks LSP on r/w until the client sends exit or closes r. It
// returns nil after shutdown+exit and ErrExitWithoutShutdown otherwise,
// or the reason the agent could not be built, which ends the connection
// once initialize is answered (what was already read is answered too).
// Sessions the connection started are closed before it returns.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	if s.building == nil {
		return errors.New("lsp: Serve needs an agent")
	}
	base, cancel := context.WithCancel(ctx)
	defer cancel()
	s.baseCtx = base
	// exit ends the connection by cancelling its context: a signal (ctx)
	// does the same.
	connCtx, endConn := context.WithCancel(ctx)
	defer endConn()
	s.endConn = endConn
	buildErr := s.building.Watch(connCtx, s.answered, endConn)
	s.conn = newConn(s, r, w, base)
	err := s.conn.rpc.Serve(connCtx)
	s.closeSessions()
	cancel() // ends the indexes' background acquisitions (indexes.ready)
	s.indexes.releaseAll()
	endConn()
	if err := buildErr(); err != nil {
		return err
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		s.log.Warn("connection ended", "err", err)
	}
	s.stateMu.Lock()
	clean := s.state == stateShutdown
	s.stateMu.Unlock()
	if !clean {
		return ErrExitWithoutShutdown
	}
	return nil
}

// method is one entry of the dispatch table.
type method struct {
	call   func(ctx context.Context, params json.RawMessage) (any, error)
	notify func(ctx context.Context, params json.RawMessage) error
}

// methods maps every method tandem serves to its handler. Methods LSP
// defines that tandem does not serve are listed in unimplemented.go.
func (s *Server) methods() map[string]method {
	return map[string]method{
		"initialize":  {call: s.initialize},
		"initialized": {notify: ignoreNotification},
		"shutdown":    {call: s.shutdown},
		"exit":        {notify: s.exit},

		"textDocument/didOpen":   {notify: s.didOpen},
		"textDocument/didChange": {notify: s.didChange},
		"textDocument/didClose":  {notify: s.didClose},
		"textDocument/didSave":   {notify: s.didSave},

		"textDocument/documentSymbol":   {call: s.documentSymbol},
		"workspace/symbol":              {call: s.workspaceSymbol},
		"textDocument/codeAction":       {call: s.codeAction},
		"textDocument/inlineCompletion": {call: s.inlineCompletion},
		"workspace/executeCommand":      {call: s.executeCommand},

		"window/workDoneProgress/cancel":      {notify: s.progressCancel},
		"workspace/didChangeConfiguration":    {notify: ignoreNotification},
		"workspace/didChangeWorkspaceFolders": {notify: s.didChangeWorkspaceFolders},
		"$/setTrace":                          {notify: ignoreNotification},

		"tandem/newSession":   {call: s.newSession},
		"tandem/loadSession":  {call: s.loadSession},
		"tandem/listSessions": {call: s.listSessions},
		"tandem/setMode":      {call: s.setMode},
		"tandem/prompt":       {call: s.prompt},
		"tandem/cancel":       {notify: s.cancel},
		"tandem/instructions": {call: s.instructions},

		"tandem/setModel":        {call: s.setModel},
		"tandem/configOptions":   {call: s.configOptions},
		"tandem/setConfigOption": {call: s.setConfigOption},
		"tandem/closeSession":    {call: s.closeSession},
		"tandem/resumeSession":   {call: s.resumeSession},
		"tandem/deleteSession":   {call: s.deleteSession},
		"tandem/renameSession":   {call: s.renameSession},
		"tandem/forkSession":     {call: s.forkSession},
		"tandem/listCommands":    {call: s.listCommands},
		"tandem/usage":           {call: s.usage},
		"tandem/nextEdit":        {call: s.nextEdit},
	}
}

func ignoreNotification(context.Context, json.RawMessage) error { return nil }

// inline keeps lifecycle requests on the read loop so nothing overtakes
// initialize and nothing runs after shutdown has answered. Notifications
// tandem serves run there too, in arrival order: they are quick and
// order-sensitive (didChange must land before the request that follows
// it). None of these may call the client.
func (s *Server) inline(m string) bool {
	return m == "initialize" || m == "shutdown" || s.table[m].notify != nil
}

// serve is the connection's handler.
func (s *Server) serve(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return s.handle(ctx, req.Method, req.Params, !req.IsNotification())
}

func (s *Server) handle(ctx context.Context, name string, params json.RawMessage, isCall bool) (any, error) {
	s.stateMu.Lock()
	state := s.state
	s.stateMu.Unlock()
	if name == "exit" {
		return nil, s.exit(ctx, params)
	}
	switch {
	case state == stateNew && name != "initialize":
		if !isCall {
			return nil, nil // LSP: notifications before initialize are dropped
		}
		return nil, rpcError(codeServerNotInitialized, "the server is not initialized: send initialize first")
	case state == stateShutdown:
		return nil, rpcError(jsonrpc.CodeInvalidRequest, "the server is shutting down: only exit is accepted")
	}
	m, ok := s.table[name]
	switch {
	case !ok && !isCall:
		return nil, nil // unknown notifications ($/ and others) are ignored
	case !ok:
		if why, known := unimplemented()[name]; known {
			return nil, rpcError(jsonrpc.CodeMethodNotFound, name+": "+why)
		}
		return nil, rpcError(jsonrpc.CodeMethodNotFound, fmt.Sprintf("method %q is not supported by tandem", name))
	case isCall && m.call == nil:
		return nil, rpcError(jsonrpc.CodeInvalidRequest, fmt.Sprintf("%s is a notification; send it without an id", name))
	case !isCall && m.notify == nil:
		return nil, nil // a request sent as a notification: nobody to answer
	case isCall:
		return m.call(ctx, params)
	default:
		return nil, m.notify(ctx, params)
	}
}

// agentFor waits for the agent (see Options.Building) and returns it, or
// why there is none: building failed or ctx ended.
func (s *Server) agentFor(ctx context.Context) (*agent.Agent, error) {
	a, err := s.building.Agent(ctx)
	if err != nil {
		return nil, agentError(err)
	}
	return a, nil
}

// decode reads params into v, answering InvalidParams on a mismatch.
func decode(params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return rpcError(jsonrpc.CodeInvalidParams, "params are required")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return rpcError(jsonrpc.CodeInvalidParams, "invalid params: "+err.Error())
	}
	return nil
}

func invalidParams(format string, args ...any) error {
	return rpcError(jsonrpc.CodeInvalidParams, fmt.Sprintf(format, args...))
}

// encoding returns the negotiated position encoding.
func (s *Server) encoding() edits.Encoding {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.enc
}

// clientCaps returns the client's capabilities (immutable after initialize).
func (s *Server) clientCaps() *clientCaps {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return &s.caps
}
