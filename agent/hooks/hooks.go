package hooks

import (
	"context"
	"log/slog"
	"sync"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/local"
)

// Options say where hooks come from and how they run.
type Options struct {
	Home     string // $TANDEM_HOME: config.json and the consent file
	UserHome string // the user's home directory, for ~/.claude/settings.json
	// Claude reads Claude Code's own settings files too (~/.claude and
	// <root>/.claude), so the hooks users configured there work.
	Claude bool
	// Plugins lists the enabled Claude Code plugins' hooks.json for a
	// root; nil: none.
	Plugins func(root string) []PluginFile
	// Run runs a hook's command; nil: agent/local, as tandem runs every
	// command itself (sandbox, no secrets in the environment).
	Run func(context.Context, command.Spec) (command.Result, error)
	Log *slog.Logger
}

// Hooks runs the hooks of every session of one process.
type Hooks struct {
	o   Options
	log *slog.Logger

	// sessionsMu guards sessions and their fields.
	sessionsMu sync.Mutex
	sessions   map[string]*session
}

// session is what Hooks keeps per session.
type session struct {
	s        *agent.Session
	started  bool   // SessionStart has run
	accepted string // the project hooks' digest the user agreed to here
	declined string // the digest the user said no to (asked once)
	// srcs are the hooks as read at the turn's start: a turn runs one set,
	// and a tool call costs no file reads.
	srcs   []Source
	loaded bool
}

// New makes a Hooks; nothing runs until Register wires it in.
func New(o Options) *Hooks {
	if o.Run == nil {
		o.Run = local.Run
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Hooks{o: o, log: log, sessions: map[string]*session{}}
}

// Register adds the hooks' contributors to p's seams.
func (h *Hooks) Register(p *agent.Pipeline) {
	p.SessionOpen = append(p.SessionOpen, h.open)
	p.SessionClose = append(p.SessionClose, h.close)
	p.TurnStart = append(p.TurnStart, h.turnStart)
	p.UserPrompt = append(p.UserPrompt, h.userPrompt)
	p.BeforeToolCall = append(p.BeforeToolCall, h.beforeToolCall)
	p.AfterToolCall = append(p.AfterToolCall, h.afterToolCall)
	p.BeforeStop = append(p.BeforeStop, h.beforeStop)
}

func (h *Hooks) open(_ context.Context, s *agent.Session) {
	h.sessionsMu.Lock()
	h.sessions[s.ID()] = &session{s: s}
	h.sessionsMu.Unlock()
}

// turnStart reads the hooks for the turn, telling the user what could
// not be read.
func (h *Hooks) turnStart(_ context.Context, e agent.TurnStartEvent) {
	ss := h.lookup(e.SessionID)
	if ss == nil {
		return
	}
	srcs, problems := h.sources(ss.s.Root())
	for _, p := range problems {
		ss.s.Notice(p)
	}
	h.update(ss, func(ss *session) { ss.srcs, ss.loaded = srcs, true })
}

// current returns the turn's hooks, or reads them when no turn started
// (SessionEnd of a session that never had a prompt).
func (h *Hooks) current(ss *session) []Source {
	h.sessionsMu.Lock()
	srcs, loaded := ss.srcs, ss.loaded
	h.sessionsMu.Unlock()
	if loaded {
		return srcs
	}
	srcs, _ = h.sources(ss.s.Root())
	return srcs
}

func (h *Hooks) lookup(id string) *session {
	h.sessionsMu.Lock()
	defer h.sessionsMu.Unlock()
	return h.sessions[id]
}

// update changes a session's fields under the lock.
func (h *Hooks) update(ss *session, f func(*session)) {
	h.sessionsMu.Lock()
	f(ss)
	h.sessionsMu.Unlock()
}

// close runs SessionEnd; the session is stopping, so each hook gets at
// most closeBudget.
func (h *Hooks) close(s *agent.Session) {
	ss := h.lookup(s.ID())
	h.sessionsMu.Lock()
	delete(h.sessions, s.ID())
	h.sessionsMu.Unlock()
	if ss == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeBudget)
	defer cancel()
	h.fire(ctx, ss, SessionEnd, "", input{Reason: "other"})
}
