package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/mcp"
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

// Session is one conversation in one working directory, run as an actor
// (see the package doc): the fields in st and the parts' state belong to
// the goroutine in run, and every other goroutine reaches them through do.
type Session struct {
	a       *Agent
	id      string
	cwd     string
	root    string
	roots   []string // additional roots, symlinks resolved; fixed for the session
	created time.Time
	host    Host
	// confinement is the host's word on its commands' sandbox, asked once.
	confinement command.Confinement
	// liveOutput is whether the editor shows commands' output as they run
	// (LiveOutputHost), asked once.
	liveOutput bool
	log        *store.Log
	out        *outbox
	// tasks bounds how many subagents run at once.
	tasks chan struct{}

	inbox chan func()
	done  chan struct{} // closed when run returns; st and the parts are then readable by anyone
	// cancels is Session.Cancel's path: a token the actor takes before
	// any message (run), so Cancel never waits for it. It holds one.
	cancels   chan struct{}
	turns     sync.WaitGroup // turn and title request goroutines; Close waits for them
	closeOnce sync.Once
	closeErr  error
	// retired is what the actor handed shutdown as it returned (retire).
	retired retiredServices

	// The parts: state the actor owns, grouped with what uses it. Their
	// fields other than s are the actor's, like st.
	perms  permissions   // permission rules, grants and decisions
	index  codeIndexes   // the roots' code indexes
	mcp    mcpServers    // MCP connections
	custom customization // commands, skills, modes, agents, instructions
	hist   historyLog    // the model history, its markers, the log's health

	st actorState
}

// actorState is what the actor owns beside the parts (Session's perms,
// index, mcp, custom and hist). A running turn borrows the history and the
// instructions tracker (see turnRun) and gives them back when it ends.
type actorState struct {
	mode      Mode
	roleMode  Mode   // the mode whose role the history last stated (see modeRole)
	roleText  string // and the role text it stated
	model     string
	effort    llm.Effort // "" until chosen: the agent's default applies
	toggles   Toggles
	title     titleState
	lifecycle Lifecycle
	outcome   Outcome
	closed    bool
	turn      *turnRun  // non-nil while a turn runs
	queued    []*waiter // prompts waiting behind the turn (queue.go); empty when turn is nil

	// watchers are the running turns' view channels (turnview.go).
	watchers []chan turnView
	// catalog is the session's tools, changed on the actor; turns get its
	// list in their view.
	catalog *tools.Registry
	usage   usageState
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
	s.custom.load()
	if a.cfg.Store != nil {
		l, err := a.cfg.Store.Create(store.Meta{ID: s.id, Cwd: s.cwd, AdditionalDirectories: s.roots, Mode: string(s.st.mode), Model: s.st.model, Created: s.created, Updated: s.created})
		if err != nil {
			return nil, err
		}
		s.log = l
	}
	if err := s.start(ctx, o.MCPServers); err != nil {
		return nil, err
	}
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
	roots, err := additionalRoots(o.AdditionalRoots, root)
	if err != nil {
		return nil, err
	}
	defs := a.loadDefinitions(root)
	mode, err := defs.modes.parse(string(o.Mode))
	if err != nil {
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
	s := &Session{
		a:       a,
		cwd:     filepath.Clean(o.Cwd),
		root:    root,
		roots:   roots,
		host:    o.Host,
		tasks:   make(chan struct{}, a.maxParallelTasks()),
		cancels: make(chan struct{}, 1),
		inbox:   make(chan func()),
		done:    make(chan struct{}),
		st: actorState{
			mode:      mode,
			model:     model,
			lifecycle: Idle,
			catalog:   reg,
		},
	}
	s.perms.s, s.index.s, s.mcp.s, s.custom.s, s.hist.s = s, s, s, s, s
	s.custom.defs = &defs
	s.custom.instr = s.custom.newInstr()
	s.custom.addTaskTool()
	return s, nil
}

// start registers the session with the agent and launches its goroutines:
// the update FIFO, the per-session services and the actor.
func (s *Session) start(ctx context.Context, servers []mcp.Server) error {
	opened, err := s.a.beginOpen()
	if err != nil {
		if s.log != nil {
			s.log.Close()
		}
		return err
	}
	defer opened()
	s.confinement = confinementOf(s.host)
	s.liveOutput = liveOutputOf(s.host)
	s.out = startOutbox(s.host, s.log, s.a.log.With("session", s.id), s.a.cfg.Redact, s.a.cfg.MaxResultBytes)
	s.noticeSandbox()
	s.host = orderedHost{Host: s.host, out: s.out}
	go s.run()
	s.custom.reportProblems(s.custom.current().problems)
	s.mcp.start(ctx, servers)
	// Registered last, so whoever finds the session (Close, fork, delete)
	// finds it whole; an agent already closing gets it closed again here.
	if err := s.a.track(s); err != nil {
		s.Close()
		return err
	}
	for _, f := range s.a.cfg.Pipeline.SessionOpen {
		f(ctx, s)
	}
	return nil
}

// ID returns the session id.
func (s *Session) ID() string { return s.id }

// Cwd returns the working directory the session was opened with.
func (s *Session) Cwd() string { return s.cwd }

// Root returns the session root: Cwd with symlinks resolved. Tool paths
// resolve against it and may not leave it.
func (s *Session) Root() string { return s.root }

// Title returns the session title: the first prompt's first line until a
// model or the user gives it another (session_title.go).
func (s *Session) Title() (t string) {
	s.read(func() { t = s.st.title.text })
	return t
}

// State returns both axes of the task state.
func (s *Session) State() (l Lifecycle, o Outcome) {
	s.read(func() { l, o = s.st.lifecycle, s.st.outcome })
	return l, o
}

// Mode returns the current mode.
func (s *Session) Mode() (m Mode) {
	s.read(func() { m = s.st.mode })
	return m
}

// Model returns the current model id.
func (s *Session) Model() (id string) {
	s.read(func() { id = s.st.model })
	return id
}

func (s *Session) setLifecycle(l Lifecycle) {
	s.do(context.Background(), func() { s.st.lifecycle = l })
}

// SetMode switches mode and sends current_mode_update before it returns.
// It takes effect at once, even mid-turn: the next permission decision
// uses the new mode.
func (s *Session) SetMode(m Mode) error {
	d := s.custom.current()
	if _, err := d.modes.parse(string(m)); err != nil || m == "" {
		return fmt.Errorf("%w %q: use %s", ErrUnknownMode, m, d.modes.choices())
	}
	var meta *store.Meta
	err := s.change(func() {
		if s.st.mode != m {
			s.st.mode = m
			s.viewChanged()
			meta = s.meta()
		}
	})
	if err == nil && meta != nil {
		s.emit(Update{Type: CurrentModeUpdate, ModeID: string(m)})
		s.saveMeta(meta)
		s.out.drain() // the update is on its way when SetMode returns
	}
	return err
}

// SetModel switches the model for the next request. The id must be one the
// agent offers, or the session's own; with no list at all (nothing
// configured or reported) any id goes. Errors match ErrUnknownModel.
func (s *Session) SetModel(id string) error {
	if err := s.a.CheckModel(id); err != nil && (id == "" || id != s.Model()) {
		return err
	}
	var meta *store.Meta
	err := s.change(func() {
		s.st.model = id
		s.viewChanged()
		meta = s.meta()
	})
	if err == nil {
		s.saveMeta(meta)
	}
	return err
}

// UpdateTools adds tools to the session's catalog and removes others by
// name (plugins enabled, disabled or failing); the next model request sees
// the change. Tools go through the same policy as the built-ins.
func (s *Session) UpdateTools(add []tools.Tool, remove []string) { s.updateCatalog(add, remove) }

// updateCatalog changes the tool catalog (MCP servers coming and going);
// the next model request sees the change.
func (s *Session) updateCatalog(add []tools.Tool, remove []string) {
	s.do(context.Background(), func() {
		for _, n := range remove {
			s.st.catalog.Remove(n)
		}
		for _, t := range add {
			s.st.catalog.Add(t)
		}
		s.viewChanged()
	})
}

// Close cancels a running turn, then stops the actor, the turn, the
// session's services and its update FIFO, and closes the log. It returns
// when all of them are gone; a second call waits for the first.
func (s *Session) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.shutdown() })
	return s.closeErr
}

func (s *Session) shutdown() error {
	s.do(context.Background(), func() {
		s.st.closed = true
		if c := s.st.title.cancel; c != nil {
			c()
		}
		if s.st.turn != nil {
			s.st.turn.cancel()
			close(s.st.turn.closing)
		}
	})
	<-s.done // the actor has returned: st is ours to read now
	s.turns.Wait()
	for _, f := range s.a.cfg.Pipeline.SessionClose {
		f(s)
	}
	s.stopExtras()
	s.saveMeta(s.meta())
	s.out.stop()
	s.a.forget(s)
	var err error
	if s.log != nil {
		err = s.log.Close()
	}
	return err
}

// meta is the sidecar for the current state; it runs on the actor (or
// after it ended). The title is redacted: a first prompt or a model may
// have put a key in it.
func (s *Session) meta() *store.Meta {
	return &store.Meta{ID: s.id, Cwd: s.cwd, AdditionalDirectories: s.roots, Created: s.created, Updated: time.Now().UTC(),
		Mode: string(s.st.mode), Model: s.st.model, Effort: string(s.st.effort), Title: s.a.cfg.Redact.String(s.st.title.text), TitleBy: s.st.title.by,
		SandboxOff: s.st.toggles.SandboxOff, AutoCompactOff: s.st.toggles.AutoCompactOff}
}

// saveMeta queues a rewrite of the sidecar; nothing in it needs reading
// back first. Never on the actor: it may wait for the FIFO, and the FIFO's
// Host.Send may be waiting for the actor.
func (s *Session) saveMeta(m *store.Meta) {
	if s.log != nil && s.a.cfg.Store != nil {
		s.out.setMeta(*m)
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
