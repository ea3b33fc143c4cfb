package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tandemhq/tandem/agent/tools"
)

type state string

const (
	stateConnecting state = "connecting"
	stateReady      state = "ready"
	stateFailed     state = "failed"
	stateClosed     state = "closed"
)

// server is one connection, owned by its run goroutine: it connects,
// announces tools, follows list changes and tears the connection down.
// Tool calls arrive from session goroutines and only read its state.
type server struct {
	m    *Manager
	cfg  Server
	link *link
	log  *slog.Logger

	ctx    context.Context // ends at Close or on a fault
	cancel context.CancelFunc

	refresh chan struct{} // buffered(1): the server said its tool list changed
	attempt int           // 0 for the first start, n for the n-th restart

	settled    chan struct{} // closed when the connection attempt is over (wait.go)
	settleOnce sync.Once
	// connectTimer is the connect deadline's timer; nil before connecting.
	connectTimer *time.Timer

	stateMu     sync.Mutex // guards the fields below
	state       state
	session     *sdk.ClientSession
	tools       map[string]*mcpTool // by model-facing name
	prompts     []Prompt
	resources   bool // it offers resources
	failure     string
	connectTime time.Duration
	readyAt     time.Time // when the tools were first announced
	restartAs   int       // set by the fault that failed it: the restart due, if any

	urls urlElicits // url-mode elicitations awaiting completion
}

func newServer(m *Manager, cfg Server) *server {
	ctx, cancel := context.WithCancel(m.ctx)
	log := m.log.With("mcp_server", cfg.Name)
	s := &server{
		m: m, cfg: cfg, log: log,
		link:    newLink(cfg, m.opts.Root, log),
		ctx:     ctx,
		cancel:  cancel,
		refresh: make(chan struct{}, 1),
		settled: make(chan struct{}),
		state:   stateConnecting,
		tools:   map[string]*mcpTool{},
	}
	s.enableOAuth()
	return s
}

func (s *server) run() {
	defer s.m.wg.Done()
	defer s.cancel()
	start := time.Now()
	cs, err := s.connect()
	if err == nil {
		s.setSession(cs)
		err = s.syncTools(cs)
	}
	if err == nil {
		s.syncOffers(cs)
	}
	s.stateMu.Lock()
	s.connectTime = time.Since(start)
	s.stateMu.Unlock()
	if err != nil {
		if s.ctx.Err() == nil { // not closed while connecting
			verb := "start"
			if s.attempt > 0 {
				verb = "restart"
			}
			s.fault(fmt.Sprintf("could not %s: %s", verb, describe(err, s.link)))
		}
		if s.attempt == 0 {
			s.m.settle() // after the notice is queued, so Ready implies it
		}
		s.markSettled()
		s.shutdown(cs)
		s.restartIfDue()
		return
	}
	s.markSettled()
	if s.attempt == 0 {
		s.m.settle()
	} else {
		s.m.notice(fmt.Sprintf("MCP server %q restarted; its tools are back", s.cfg.Name))
	}
	s.log.Info("mcp server ready", "transport", string(s.cfg.Type), "took", time.Since(start), "tools", len(s.currentTools()))
	s.stateMu.Lock()
	s.readyAt = time.Now()
	s.stateMu.Unlock()

	ended := make(chan error, 1)
	go func() { ended <- cs.Wait() }() // returns once shutdown closes cs at the latest
	for {
		select {
		case <-s.ctx.Done(): // closed, or failed (fault)
			s.shutdown(cs)
			<-ended
			s.restartIfDue()
			return
		case err := <-ended:
			if err == nil {
				err = errors.New("connection closed")
			}
			s.fault("stopped: " + describe(err, s.link))
			s.shutdown(cs)
			s.restartIfDue()
			return
		case <-s.refresh:
			s.syncOffers(cs)
			err := s.syncTools(cs)
			if err == nil || s.ctx.Err() != nil {
				continue
			}
			if s.alive(cs) { // answered wrongly, but answers: keep what it had
				s.log.Warn("mcp server: listing changed tools failed", "err", err)
				continue
			}
			s.fault(fmt.Sprintf("stopped responding (%v)", err))
		}
	}
}

// fault reports what went wrong with the server and what happens next: a
// restart, while the session has restarts left for it, or nothing.
func (s *server) fault(what string) {
	next := s.nextAttempt()
	tail := "its tools are gone for this session"
	if next > 0 {
		tail = fmt.Sprintf("restarting it (%d of %d)", next, s.m.opts.Restarts)
	}
	s.fail(fmt.Sprintf("MCP server %q %s; %s", s.cfg.Name, what, tail), next)
}

// nextAttempt is the number the next restart would have, or 0 when none
// is due: a server that never started the first time (a configuration
// problem, most likely) or one out of restarts stays down.
func (s *server) nextAttempt() int {
	s.stateMu.Lock()
	readyAt := s.readyAt
	s.stateMu.Unlock()
	next := s.attempt + 1
	switch {
	case readyAt.IsZero() && s.attempt == 0:
		return 0
	case !readyAt.IsZero() && time.Since(readyAt) >= stableUptime:
		next = 1
	}
	if next > s.m.opts.Restarts {
		return 0
	}
	return next
}

// restartIfDue schedules the restart a fault decided on, unless the
// session is closing.
func (s *server) restartIfDue() {
	s.stateMu.Lock()
	next := s.restartAs
	s.stateMu.Unlock()
	if next > 0 && s.m.ctx.Err() == nil {
		s.m.restart(s, next)
	}
}

var errConnectTimeout = errors.New("timed out connecting")

func (s *server) connect() (*sdk.ClientSession, error) {
	if err := s.cfg.Validate(); err != nil {
		return nil, err
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "tandem", Version: s.m.opts.Version}, &sdk.ClientOptions{
		Logger: s.m.log.With("mcp_server", s.cfg.Name, "component", "mcp-sdk"),
		// Listing from inside the SDK's handler could wait on the very
		// reader that delivers the answer; the run loop lists instead.
		ToolListChangedHandler:     func(context.Context, *sdk.ToolListChangedRequest) { s.wantRefresh() },
		PromptListChangedHandler:   func(context.Context, *sdk.PromptListChangedRequest) { s.wantRefresh() },
		ElicitationHandler:         s.elicitHandler(),
		ElicitationCompleteHandler: s.elicitCompleteHandler(),
		Capabilities:               s.capabilities(),
	})
	// The session's roots are the server's roots, on purpose: the SDK
	// advertises the roots capability, and servers that honour it confine
	// themselves to the roots the client lists. server-filesystem, for one,
	// then replaces the directories on its command line with these roots,
	// so a project's filesystem server sees this session's roots and
	// nothing else, whatever its config says.
	if roots := s.m.opts.roots(); len(roots) > 0 {
		client.AddRoots(roots...)
	}
	// The SSE transport keeps the context of Connect for its event stream,
	// so the deadline cancels the server's context rather than wrapping it.
	ctx, cancel := context.WithCancel(s.ctx)
	timer := time.AfterFunc(s.m.opts.ConnectTimeout, cancel)
	s.stateMu.Lock()
	s.connectTimer = timer // held while the user signs in (oauth.go)
	s.stateMu.Unlock()
	cs, err := client.Connect(ctx, s.link.transport, nil)
	if !timer.Stop() {
		if err == nil {
			_ = cs.Close()
		}
		return nil, fmt.Errorf("%w after %s", errConnectTimeout, s.m.opts.ConnectTimeout)
	}
	return cs, err // ctx, a child of s.ctx, ends with the server
}

// wantRefresh asks the run loop to list tools and prompts again.
func (s *server) wantRefresh() {
	select {
	case s.refresh <- struct{}{}:
	default:
	}
}

// roots are the MCP roots of the session: its root first, then the
// additional ones, each a file:// URI named after its last element.
func (o *Options) roots() []*sdk.Root {
	var out []*sdk.Root
	for _, dir := range append([]string{o.Root}, o.Roots...) {
		if dir != "" {
			out = append(out, &sdk.Root{URI: fileURI(dir), Name: filepath.Base(dir)})
		}
	}
	return out
}

func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

func (s *server) setSession(cs *sdk.ClientSession) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	s.session = cs
}

// syncTools lists the server's tools and announces the difference from
// what the session has.
func (s *server) syncTools(cs *sdk.ClientSession) error {
	ctx, cancel := context.WithTimeout(s.ctx, s.m.opts.CallTimeout)
	defer cancel()
	var listed []*sdk.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("listing tools: %w", err)
		}
		listed = append(listed, t)
	}
	s.stateMu.Lock()
	if s.state == stateFailed || s.state == stateClosed {
		s.stateMu.Unlock()
		return nil
	}
	s.state = stateReady
	next := map[string]*mcpTool{}
	var add []tools.Tool
	var remove []string
	for _, t := range listed {
		nt := newTool(s, s.m.claimName(s.cfg.Name, t.Name), t)
		next[nt.info.Name] = nt
		if old, ok := s.tools[nt.info.Name]; ok {
			if old.sameAs(nt) {
				next[nt.info.Name] = old
				continue
			}
			remove = append(remove, nt.info.Name)
		}
		add = append(add, nt)
	}
	for name := range s.tools {
		if _, ok := next[name]; !ok {
			remove = append(remove, name)
		}
	}
	s.tools = next
	s.stateMu.Unlock()
	s.m.releaseNames(goneNames(remove, next))
	if len(add) > 0 || len(remove) > 0 {
		s.m.events.push(event{add: add, remove: remove})
	}
	return nil
}

func goneNames(removed []string, kept map[string]*mcpTool) []string {
	var out []string
	for _, n := range removed {
		if _, ok := kept[n]; !ok {
			out = append(out, n)
		}
	}
	return out
}

// fail marks the server broken, once: the user hears msg, the session loses
// its tools and the run loop tears the connection down, then starts the
// server again as restart number restartAs if that is not 0.
func (s *server) fail(msg string, restartAs int) {
	s.stateMu.Lock()
	if s.state == stateFailed || s.state == stateClosed {
		s.stateMu.Unlock()
		return
	}
	s.state = stateFailed
	s.failure = msg
	s.restartAs = restartAs
	var names []string
	for n := range s.tools {
		names = append(names, n)
	}
	s.tools = map[string]*mcpTool{}
	hadOffers := len(s.prompts) > 0 || s.resources
	s.prompts, s.resources = nil, false
	s.stateMu.Unlock()

	s.m.releaseNames(names)
	s.m.notice(msg)
	if len(names) > 0 || hadOffers {
		s.m.events.push(event{remove: names, offers: hadOffers})
	}
	s.cancel()
}

// shutdown closes the connection. A healthy stdio server gets its stdin
// closed and a moment to leave; a failed one is killed first, since it
// may not be listening any more.
func (s *server) shutdown(cs *sdk.ClientSession) {
	s.stateMu.Lock()
	failed := s.state == stateFailed
	if !failed {
		s.state = stateClosed
	}
	s.stateMu.Unlock()
	if failed {
		s.link.release()
	}
	if cs != nil {
		_ = cs.Close()
	}
	s.link.release()
}

func (s *server) currentSession() (*sdk.ClientSession, string) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	switch s.state {
	case stateReady:
		return s.session, ""
	case stateFailed:
		return nil, s.failure
	}
	return nil, fmt.Sprintf("MCP server %q is %s", s.cfg.Name, s.state)
}

func (s *server) currentTools() []tools.Tool {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	out := make([]tools.Tool, 0, len(s.tools))
	for _, name := range slices.Sorted(maps.Keys(s.tools)) {
		out = append(out, s.tools[name])
	}
	return out
}

func (s *server) status() Status {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return Status{Name: s.cfg.Name, Type: s.cfg.Type, State: string(s.state), Tools: len(s.tools),
		Err: s.failure, ConnectTime: s.connectTime}
}
