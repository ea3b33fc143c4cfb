package mcp

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tandemhq/tandem/agent/tools"
)

// Defaults for Options.
const (
	DefaultCallTimeout    = 60 * time.Second
	DefaultConnectTimeout = 60 * time.Second // npx may fetch a package first
	// DefaultRestarts is how often a server that stops on its own is
	// started again within one session; a server that ran for
	// stableUptime before stopping starts counting afresh.
	DefaultRestarts = 3
	// DefaultRestartDelay is the wait before the first restart; the n-th
	// waits n times as long.
	DefaultRestartDelay = time.Second
)

// stableUptime is how long a server must have run for its next stop to
// count as a first one.
const stableUptime = time.Minute

// Options configure the MCP servers of one session.
type Options struct {
	// Root is the session root, given to every server as its first MCP
	// root; Roots are the session's additional roots, listed after it.
	Root    string
	Roots   []string
	Servers []Server
	// Log receives diagnostics, including servers' stderr at debug level.
	Log *slog.Logger
	// CallTimeout bounds one tool call (0: DefaultCallTimeout).
	CallTimeout time.Duration
	// ConnectTimeout bounds starting and initializing a server (0: DefaultConnectTimeout).
	ConnectTimeout time.Duration
	// OnTools announces tools joining (add) and leaving (remove, by name)
	// the session's catalog. Names in remove are dropped before add is
	// applied: a tool whose definition changed is in both. Called from one
	// goroutine, in order; it must not block for long.
	OnTools func(add []tools.Tool, remove []string)
	// OnNotice tells the user something went wrong with a server, once per
	// server. Same goroutine as OnTools.
	OnNotice func(msg string)
	// OnOffers says a server's prompts (Manager.Prompts) or resources
	// changed: it became ready, stopped, or sent a list change. Same
	// goroutine as OnTools.
	OnOffers func()
	// OnElicit shows a server's elicitation to the user and returns the
	// answer; nil: elicitation is not offered to servers. It is called
	// from the server's connection while the server waits.
	OnElicit func(ctx context.Context, e Elicitation) (Answer, error)
	// OnElicitDone hears that a url-mode elicitation the user accepted is
	// complete (notifications/elicitation/complete): Server, ID and URL
	// are set. Same goroutine as OnTools.
	OnElicitDone func(e Elicitation)
	// OAuthFile keeps remote servers' sign-ins (OAuthFile(home)); empty:
	// a sign-in lasts as long as the session.
	OAuthFile string
	// Version is tandem's version, sent to servers as the client's.
	Version string
	// Restarts bounds restarts of a server that stops on its own (0:
	// DefaultRestarts; negative: never). RestartDelay is the first wait
	// (0: DefaultRestartDelay).
	Restarts     int
	RestartDelay time.Duration
}

// Manager holds one session's connections to its MCP servers.
type Manager struct {
	opts   Options
	log    *slog.Logger
	ctx    context.Context
	cancel context.CancelFunc
	events *dispatcher
	tokens *tokenStore

	serversMu sync.Mutex // guards servers: a restart replaces an entry
	servers   []*server
	wg        sync.WaitGroup // one per server goroutine, and per pending restart
	unsettled atomic.Int32
	ready     chan struct{} // closed once every server is ready or has failed

	namesMu sync.Mutex        // guards names
	names   map[string]string // model-facing tool name -> owner (server + "\x00" + tool)

	closeOnce sync.Once
}

// Start connects to every server in the background and returns at once.
// Tools arrive through Options.OnTools as their servers become ready. ctx
// carries values only; the servers live until Close.
func Start(ctx context.Context, o Options) *Manager {
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.Restarts == 0 {
		o.Restarts = DefaultRestarts
	}
	if o.RestartDelay <= 0 {
		o.RestartDelay = DefaultRestartDelay
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// The servers outlive the request that opened the session.
	mctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	m := &Manager{
		opts:   o,
		log:    log,
		ctx:    mctx,
		cancel: cancel,
		events: newDispatcher(o.OnTools, o.OnNotice, o.OnOffers, o.OnElicitDone),
		tokens: &tokenStore{path: o.OAuthFile},
		ready:  make(chan struct{}),
		names:  map[string]string{},
	}
	list := Merge(o.Servers)
	m.unsettled.Store(int32(len(list)))
	if len(list) == 0 {
		close(m.ready)
	}
	for _, cfg := range list {
		s := newServer(m, cfg)
		m.servers = append(m.servers, s)
		m.wg.Add(1)
		go s.run()
	}
	return m
}

// Ready is closed once every server has announced its tools or failed.
// A session need not wait for it; tests and one-shot runs may.
func (m *Manager) Ready() <-chan struct{} { return m.ready }

func (m *Manager) settle() {
	if m.unsettled.Add(-1) == 0 {
		close(m.ready)
	}
}

// Tools returns the tools currently offered, server by server.
func (m *Manager) Tools() []tools.Tool {
	var out []tools.Tool
	for _, s := range m.list() {
		out = append(out, s.currentTools()...)
	}
	return out
}

func (m *Manager) list() []*server {
	m.serversMu.Lock()
	defer m.serversMu.Unlock()
	return slices.Clone(m.servers)
}

// restart starts old's server again after a delay, as the attempt-th
// restart. It is called from old's run goroutine, whose count in wg keeps
// the Add below legal while Close waits.
func (m *Manager) restart(old *server, attempt int) {
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		t := time.NewTimer(m.opts.RestartDelay * time.Duration(attempt))
		defer t.Stop()
		select {
		case <-m.ctx.Done():
			return
		case <-t.C:
		}
		s := newServer(m, old.cfg)
		s.attempt = attempt
		m.serversMu.Lock()
		if i := slices.Index(m.servers, old); i >= 0 {
			m.servers[i] = s
		}
		m.serversMu.Unlock()
		m.wg.Add(1)
		go s.run()
	}()
}

// Status is what a user sees of one server (for a /mcp command or a log).
type Status struct {
	Name  string
	Type  Type
	State string // connecting | ready | failed | closed
	Tools int
	// Err is why a failed server failed.
	Err string
	// ConnectTime is how long connecting and listing tools took.
	ConnectTime time.Duration
}

// Status reports every server's state.
func (m *Manager) Status() []Status {
	list := m.list()
	out := make([]Status, 0, len(list))
	for _, s := range list {
		out = append(out, s.status())
	}
	return out
}

// Close stops every server: calls in flight end, connections close and
// stdio servers' process groups are killed. No callback starts after Close
// returns, except one already under way. Safe to call twice.
func (m *Manager) Close() error {
	m.closeOnce.Do(func() {
		m.events.stop()
		m.cancel()
		m.wg.Wait()
	})
	return nil
}

func (m *Manager) notice(msg string) {
	m.log.Warn("mcp: " + msg)
	m.events.push(event{notice: msg})
}

// claimName gives a server's tool its model-facing name, unique within the
// session even when two names sanitize alike.
func (m *Manager) claimName(server, tool string) string {
	owner := server + "\x00" + tool
	m.namesMu.Lock()
	defer m.namesMu.Unlock()
	name := ToolName(server, tool)
	if o, ok := m.names[name]; ok && o != owner {
		sum := sha1.Sum([]byte(owner))
		tag := hex.EncodeToString(sum[:4])
		if len(name) > maxNameLen-len(tag)-1 {
			name = name[:maxNameLen-len(tag)-1]
		}
		name += "_" + tag
	}
	m.names[name] = owner
	return name
}

func (m *Manager) releaseNames(names []string) {
	m.namesMu.Lock()
	defer m.namesMu.Unlock()
	for _, n := range names {
		delete(m.names, n)
	}
}
