package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/completion"
	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// Options configure Serve.
type Options struct {
	// Agent creates and runs the sessions. Either it or Building is
	// required.
	Agent *agent.Agent
	// Building, when Agent is nil, is the agent still being built: Serve
	// reads and answers initialize meanwhile, a method that needs the agent
	// waits for it, and if building fails Serve stops, once initialize is
	// answered, and returns that error. The agent stays the caller's to
	// close.
	Building *agent.Building
	// Version is reported in agentInfo.
	Version string
	// Local runs commands and touches files when the client does not offer
	// to (no fs or terminal capability). Nil: agent/local's Host.
	Local tools.Host
	// Log receives diagnostics. Nil: discarded.
	Log *slog.Logger
	// Completion is the completion model's engine, asked first for
	// next-edit suggestions (nes.go); nil: the chat model only.
	Completion *completion.Engine
	// MaxFrameBytes caps one message tandem writes (config.json
	// maxFrameBytes). Zero: MaxMessageBytes. The agent's result cap must
	// fit it (agent.ResultCap); a message still over it is refused and
	// the session goes on.
	MaxFrameBytes int
}

// MaxMessageBytes caps one JSON-RPC message (one line) read, and by
// default one written.
const MaxMessageBytes = 8 << 20

// drainTimeout bounds how long Serve waits for answers after the client
// has gone.
const drainTimeout = 5 * time.Second

// Serve speaks ACP as the agent side over in/out until in ends or ctx is
// cancelled, then closes every session it opened. It never writes anything
// but protocol messages to out.
func Serve(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	if o.Agent == nil && o.Building == nil {
		return errors.New("acp: Serve needs an agent")
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	maxOut := o.MaxFrameBytes
	if maxOut <= 0 {
		maxOut = MaxMessageBytes
	}
	s := newServer(ctx, o, log)
	// An agent that cannot be built ends the connection with the reason,
	// once the client has its initialize answer (or the connection ended).
	buildErr := s.building.Watch(ctx, s.answered, cancel)
	s.conn = jsonrpc.NewConn(in, out, jsonrpc.Options{
		Framing: jsonrpc.NewlineDelimited,
		Handler: s.methods().Handle,
		// A $/cancel_request naming a session/prompt cancels its handler's
		// context, which Prompt turns into a cancelled turn; one from tandem
		// withdraws a request the turn no longer waits for (a permission).
		Cancel: jsonrpc.Cancel{Method: "$/cancel_request", Field: "requestId", Notify: true},
		Inline: inline,
		// The client closed its end. Requests already read are still
		// answered (a script may pipe a few and close stdin); running turns
		// are cancelled, since nobody waits for them.
		PeerClosed:   s.cancelTurns,
		MaxInbound:   MaxMessageBytes,
		MaxOutbound:  maxOut,
		DrainTimeout: drainTimeout,
		Log:          log,
	})
	err := s.conn.Serve(ctx)
	s.closeAll()
	s.closeNes()
	cancel()
	if err := buildErr(); err != nil {
		return err
	}
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("acp: %w", err)
	}
	return nil
}

// cancelTurns cancels every running prompt.
func (s *server) cancelTurns() {
	s.sessionsMu.Lock()
	defer s.sessionsMu.Unlock()
	for _, ss := range s.sessions {
		ss.cancels.Add(1)
		ss.sess.Cancel()
	}
}

// server answers ACP's methods (see methods): one thin handler per method,
// spread over the files named after the method groups.
type server struct {
	ctx      context.Context // ends when the connection does
	building *agent.Building // the agent: agentFor waits for it
	conn     *jsonrpc.Conn
	local    tools.Host
	info     sdk.Implementation
	log      *slog.Logger

	// capsMu guards the capabilities of the last initialize: as sent
	// (capsRaw), decoded by the first clientCaps after it, and whether
	// they opt into the unstable schema (unstable, see unstableClientCaps).
	capsMu   sync.Mutex
	capsRaw  json.RawMessage
	caps     *sdk.ClientCapabilities
	capsErr  error
	unstable bool
	// switches is whether the client shows boolean config options
	// (clientCapabilities.session.configOptions.boolean).
	switches bool
	// compaction is whether the client takes compaction_update
	// (clientCapabilities.session.compaction, unstable).
	compaction bool

	sessionsMu sync.Mutex
	sessions   map[string]*session

	nes        nesState           // nes/* sessions (nes.go)
	completion *completion.Engine // Options.Completion

	// answered is closed once an initialize answer has been written: an
	// agent that cannot be built ends the connection only then, so the
	// client hears that tandem started before it learns why it stopped.
	answered     chan struct{}
	answeredOnce sync.Once
}

func newServer(ctx context.Context, o Options, log *slog.Logger) *server {
	local := o.Local
	if local == nil {
		local = diskHost()
	}
	version := o.Version
	if version == "" {
		version = "dev"
	}
	title := "Tandem"
	b := o.Building
	if o.Agent != nil {
		b = agent.Built(o.Agent)
	}
	return &server{
		ctx:      ctx,
		building: b,
		answered: make(chan struct{}),
		local:    local,
		info:     sdk.Implementation{Name: "tandem", Title: &title, Version: version},
		log:      log,
		sessions: make(map[string]*session),

		completion: o.Completion,
	}
}

// agentFor waits for the agent (see Options.Building) and returns it, or
// as a JSON-RPC error why there is none: building failed or ctx ended.
func (s *server) agentFor(ctx context.Context) (*agent.Agent, error) {
	a, err := s.building.Agent(ctx)
	if err != nil {
		return nil, toRequestError(err)
	}
	return a, nil
}

// optedIn reports whether the last initialize opted into the unstable
// schema's parts.
func (s *server) optedIn() bool {
	s.capsMu.Lock()
	defer s.capsMu.Unlock()
	return s.unstable
}

// showsSwitches reports whether the last initialize's client takes
// boolean config options; others get tandem's switches as on/off selects.
func (s *server) showsSwitches() bool {
	s.capsMu.Lock()
	defer s.capsMu.Unlock()
	return s.switches
}

// clientCaps returns what the client said it can do in initialize (none
// before it), or a -32602 error saying why its capabilities do not fit the
// protocol's types.
func (s *server) clientCaps() (sdk.ClientCapabilities, error) {
	s.capsMu.Lock()
	defer s.capsMu.Unlock()
	if s.caps == nil && s.capsErr == nil {
		s.caps = new(sdk.ClientCapabilities)
		if len(s.capsRaw) > 0 {
			if err := json.Unmarshal(s.capsRaw, s.caps); err != nil {
				s.capsErr = invalidParams("the clientCapabilities sent in initialize are invalid: %v", err)
			}
		}
	}
	if s.capsErr != nil {
		return sdk.ClientCapabilities{}, s.capsErr
	}
	return *s.caps, nil
}
