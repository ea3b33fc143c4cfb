package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/agent/store"
	"github.com/tandemhq/tandem/agent/tools"
)

// Lifecycle is where a session is right now. It is one of two axes of task
// state; the other is the Outcome of the last turn. They are never merged.
type Lifecycle string

const (
	Idle               Lifecycle = "idle"
	Running            Lifecycle = "running"
	AwaitingPermission Lifecycle = "awaiting_permission"
	Cancelled          Lifecycle = "cancelled"
	Failed             Lifecycle = "failed"
)

// Outcome is how the last turn ended: its stop reason, or the error that ended it.
type Outcome struct {
	StopReason StopReason
	Err        string
}

// Session is one conversation in one working directory. Its state is owned
// by one goroutine (run) fed by an inbox; Cancel is the exception and jumps
// the queue, because the inbox is busy with the very turn it must stop.
type Session struct {
	a       *Agent
	id      string
	cwd     string
	root    string
	created time.Time
	host    Host
	tools   *tools.Registry

	inbox chan func()
	quit  chan struct{} // closed by Close
	done  chan struct{} // closed when run returns
	busy  atomic.Bool   // a prompt is queued or running

	// sendMu orders updates: store append and Host.Send happen together so
	// the log and the wire see one sequence, even from parallel tools.
	sendMu  sync.Mutex
	log     *store.Log
	pending *Update // coalesced chunk not yet logged; guarded by sendMu

	stateMu    sync.Mutex // guards the fields below
	mode       Mode
	model      string
	title      string
	lifecycle  Lifecycle
	outcome    Outcome
	cancelTurn context.CancelFunc
	closed     bool
	grants     policy.Rules // remembered "always" answers, as rules

	// Owned by the run goroutine.
	history []llm.Message
	extra   extraState
}

// NewSession starts a session in o.Cwd.
func (a *Agent) NewSession(ctx context.Context, o SessionOptions) (*Session, error) {
	s, err := a.newSession(o)
	if err != nil {
		return nil, err
	}
	s.id = o.ID
	if s.id == "" {
		s.id = store.NewID()
	}
	s.created = time.Now().UTC()
	if a.cfg.Store != nil {
		l, err := a.cfg.Store.Create(store.Meta{ID: s.id, Cwd: s.cwd, Mode: string(s.mode), Model: s.model, Created: s.created, Updated: s.created})
		if err != nil {
			return nil, err
		}
		s.log = l
	}
	s.start(ctx, o.MCPServers)
	return s, nil
}

func (a *Agent) newSession(o SessionOptions) (*Session, error) {
	if o.Host == nil {
		return nil, errors.New("agent: a session needs a Host")
	}
	if !filepath.IsAbs(o.Cwd) {
		return nil, fmt.Errorf("%w: %q", ErrInvalidCwd, o.Cwd)
	}
	st, err := os.Stat(o.Cwd)
	if err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%w: %q", ErrInvalidCwd, o.Cwd)
	}
	root, err := filepath.EvalSymlinks(o.Cwd)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidCwd, err)
	}
	mode := o.Mode
	if mode == "" {
		mode = ModeCode
	}
	if _, err := ParseMode(string(mode)); err != nil {
		return nil, err
	}
	model := o.Model
	if model == "" {
		model = a.cfg.Model
	}
	reg := tools.NewRegistry()
	for _, t := range tools.Builtin() {
		reg.Add(t)
	}
	for _, t := range a.cfg.ExtraTools {
		reg.Add(t)
	}
	for _, t := range o.Tools {
		reg.Add(t)
	}
	return &Session{
		a:         a,
		cwd:       filepath.Clean(o.Cwd),
		root:      root,
		host:      o.Host,
		tools:     reg,
		inbox:     make(chan func()),
		quit:      make(chan struct{}),
		done:      make(chan struct{}),
		mode:      mode,
		model:     model,
		lifecycle: Idle,
	}, nil
}

// start launches the session goroutine and the per-session services.
func (s *Session) start(ctx context.Context, servers []mcp.Server) {
	s.startExtras(ctx, servers)
	go s.run()
}

// run is the session's goroutine: every state change happens here.
func (s *Session) run() {
	defer close(s.done)
	for {
		select {
		case f := <-s.inbox:
			f()
		case <-s.quit:
			return
		}
	}
}

// do runs f on the session goroutine and waits for it.
func (s *Session) do(ctx context.Context, f func()) error {
	ran := make(chan struct{})
	select {
	case s.inbox <- func() { f(); close(ran) }:
	case <-s.quit:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	<-ran
	return nil
}

// ID returns the session id.
func (s *Session) ID() string { return s.id }

// Cwd returns the working directory the session was opened with.
func (s *Session) Cwd() string { return s.cwd }

// Root returns the session root: Cwd with symlinks resolved. Tool paths
// resolve against it and may not leave it.
func (s *Session) Root() string { return s.root }

// Title returns the session title (the first prompt's first line).
func (s *Session) Title() string {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.title
}

// State returns both axes of the task state.
func (s *Session) State() (Lifecycle, Outcome) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.lifecycle, s.outcome
}

func (s *Session) setLifecycle(l Lifecycle) {
	s.stateMu.Lock()
	s.lifecycle = l
	s.stateMu.Unlock()
}

// Prompt runs one turn and returns when its last update has been sent.
// A second Prompt while one runs fails with ErrBusy. Cancellation (Cancel or
// ctx) ends the turn with StopCancelled, not an error.
func (s *Session) Prompt(ctx context.Context, prompt []ContentBlock) (StopReason, error) {
	if !s.busy.CompareAndSwap(false, true) {
		return "", ErrBusy
	}
	defer s.busy.Store(false)
	var (
		reason StopReason
		err    error
	)
	if derr := s.do(ctx, func() { reason, err = s.turn(ctx, prompt) }); derr != nil {
		return "", derr
	}
	return reason, err
}

// Cancel ends the running turn, if any, with StopCancelled. It never blocks.
func (s *Session) Cancel() {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if s.cancelTurn != nil {
		s.cancelTurn()
	}
}

// Mode returns the current mode.
func (s *Session) Mode() Mode {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.mode
}

// SetMode switches mode and sends current_mode_update. It takes effect at
// once, even mid-turn: the next permission decision uses the new mode.
func (s *Session) SetMode(m Mode) error {
	if _, err := ParseMode(string(m)); err != nil {
		return err
	}
	s.stateMu.Lock()
	if s.closed {
		s.stateMu.Unlock()
		return ErrClosed
	}
	changed := s.mode != m
	s.mode = m
	s.stateMu.Unlock()
	if changed {
		s.emit(Update{Type: CurrentModeUpdate, ModeID: string(m)})
		s.saveMeta()
	}
	return nil
}

// Model returns the current model id.
func (s *Session) Model() string {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.model
}

// SetModel switches the model for the next request. Any id is accepted
// (providers know models tandem does not); an empty id is an error.
func (s *Session) SetModel(id string) error {
	if id == "" {
		return errors.New("model id is empty")
	}
	s.stateMu.Lock()
	if s.closed {
		s.stateMu.Unlock()
		return ErrClosed
	}
	s.model = id
	s.stateMu.Unlock()
	s.saveMeta()
	return nil
}

// AddTools adds tools (MCP) to the catalog; the next model request sees them.
func (s *Session) AddTools(ts ...tools.Tool) {
	for _, t := range ts {
		s.tools.Add(t)
	}
}

// RemoveTools drops the tools with the given names.
func (s *Session) RemoveTools(names ...string) {
	for _, n := range names {
		s.tools.Remove(n)
	}
}

// Close cancels a running turn, stops the session goroutine and its
// services, and syncs the log. It is safe to call twice.
func (s *Session) Close() error {
	s.stateMu.Lock()
	if s.closed {
		s.stateMu.Unlock()
		return nil
	}
	s.closed = true
	if s.cancelTurn != nil {
		s.cancelTurn()
	}
	s.stateMu.Unlock()
	close(s.quit)
	<-s.done
	s.stopExtras()
	if s.log != nil {
		s.saveMeta()
		return s.log.Close()
	}
	return nil
}

// saveMeta rewrites the sidecar from the current state; nothing in it
// needs reading back first.
func (s *Session) saveMeta() {
	if s.log == nil || s.a.cfg.Store == nil {
		return
	}
	m := store.Meta{ID: s.id, Cwd: s.cwd, Created: s.created, Updated: time.Now().UTC()}
	s.stateMu.Lock()
	m.Mode, m.Model, m.Title = string(s.mode), s.model, s.title
	s.stateMu.Unlock()
	if err := s.log.SetMeta(m); err != nil {
		s.a.log.Warn("session meta", "session", s.id, "err", err)
	}
}

// ListSessions returns stored sessions, most recent first; a non-empty cwd
// keeps only that directory's. Unreadable entries are logged and skipped.
func (a *Agent) ListSessions(cwd string) ([]store.Meta, error) {
	if a.cfg.Store == nil {
		return nil, nil
	}
	metas, errs := a.cfg.Store.List(cwd)
	for _, err := range errs {
		a.log.Warn("listing sessions", "err", err)
	}
	return metas, nil
}

// Models lists the model ids an editor may offer.
func (a *Agent) Models() []string { return a.cfg.Models }
