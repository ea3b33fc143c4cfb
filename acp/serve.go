package acp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/tools"
)

// Options configure Serve.
type Options struct {
	// Agent creates and runs the sessions. Required.
	Agent *agent.Agent
	// Version is reported in agentInfo.
	Version string
	// Local runs commands and touches files when the client does not offer
	// to (no fs or terminal capability). Nil: agent/local's Host.
	Local tools.Host
	// Log receives diagnostics. Nil: discarded.
	Log *slog.Logger
}

// Serve speaks ACP as the agent side over in/out until in ends or ctx is
// cancelled, then closes every session it opened. It never writes anything
// but protocol messages to out.
func Serve(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	if o.Agent == nil {
		return errors.New("acp: Serve needs an agent")
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	w := newWire(out, log)
	fromWire, toSDK := io.Pipe()
	s := newServer(ctx, o, w, log)
	w.onCancelPrompt = s.cancelTurn
	conn := sdk.NewAgentSideConnection(s, w, fromWire)
	conn.SetLogger(log)
	s.conn = conn

	// The pump is the only reader of in. It ends when in does; when ctx ends
	// first, closing the pipe makes its next write fail so it stops after
	// the line it is reading.
	go w.pump(in, toSDK)

	select {
	case <-conn.Done():
		// The client closed its end. Requests already read are still
		// answered (a script may pipe a few and close stdin); running turns
		// are cancelled, since nobody waits for them.
		s.cancelTurns()
		if !w.drain(drainTimeout) {
			log.Warn("acp: requests still unanswered after the client left", "waited", drainTimeout)
		}
	case <-ctx.Done():
	}
	s.closeAll()
	cancel()
	fromWire.Close()
	return nil
}

// drainTimeout bounds how long Serve waits for answers after the client
// has gone.
const drainTimeout = 5 * time.Second

// cancelTurns cancels every running prompt.
func (s *server) cancelTurns() {
	s.sessionsMu.Lock()
	defer s.sessionsMu.Unlock()
	for _, ss := range s.sessions {
		if ss.running.Load() {
			ss.cancelled.Store(true)
		}
		ss.sess.Cancel()
	}
}

// server implements the SDK's Agent interface: one thin handler per method,
// spread over the files named after the method groups.
type server struct {
	ctx   context.Context // ends when the connection does
	agent *agent.Agent
	conn  *sdk.AgentSideConnection
	wire  *wire
	local tools.Host
	info  sdk.Implementation
	log   *slog.Logger

	capsMu sync.Mutex
	caps   sdk.ClientCapabilities

	sessionsMu sync.Mutex
	sessions   map[string]*session
}

var (
	_ sdk.Agent       = (*server)(nil)
	_ sdk.AgentLoader = (*server)(nil)
)

func newServer(ctx context.Context, o Options, w *wire, log *slog.Logger) *server {
	local := o.Local
	if local == nil {
		local = diskHost()
	}
	version := o.Version
	if version == "" {
		version = "dev"
	}
	title := "Tandem"
	return &server{
		ctx:      ctx,
		agent:    o.Agent,
		wire:     w,
		local:    local,
		info:     sdk.Implementation{Name: "tandem", Title: &title, Version: version},
		log:      log,
		sessions: make(map[string]*session),
	}
}

// clientCaps returns what the client said it can do in initialize.
func (s *server) clientCaps() sdk.ClientCapabilities {
	s.capsMu.Lock()
	defer s.capsMu.Unlock()
	return s.caps
}
