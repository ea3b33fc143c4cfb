package plugin

import (
	"context"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/config"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/sandbox"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// Options configure a Runtime.
type Options struct {
	Home        string   // $TANDEM_HOME: plugins/, plugins.json, logs/, plugin-data/
	Bundled     fs.FS    // plugins embedded in the binary; may be nil
	Provisioned []string // TANDEM_PLUGIN_DIRS
	Version     string   // tandem's version, for tandemVersion ranges
	Environ     []string // environment for plugin processes (secrets are removed)
	Log         *slog.Logger
	// Provider and Model answer host/model for plugins the user allowed
	// to make model calls; nil: such calls are refused.
	Provider llm.Provider
	Model    string
	// Sandbox confines plugin processes as commands are confined (its
	// Helper is tandem's own path); the zero value runs them unconfined in
	// a process group of their own.
	Sandbox sandbox.Settings
	// Self is tandem's own executable: a bundled plugin whose main starts
	// with "tandem" runs it (a hidden subcommand serves the plugin).
	Self string
	// InProcess returns the bundled plugin NAME compiled into tandem, or
	// nil. A bundled plugin whose main is "tandem __plugin NAME" and that
	// InProcess knows runs in this process, its handlers called directly
	// (sdk.Direct), instead of as a process of its own. May be nil.
	InProcess func(name string) *sdk.Plugin
	// Changed, when set, hears every plugin instance come up (started or
	// restarted, initialized, its tools in the session's catalog) and go
	// down (failed, before any restart): what a status display or a
	// supervisor waits on instead of reading the plugin logs. It is called
	// from the runtime's goroutines, several at once, and must not block.
	Changed func(Change)

	StartTimeout time.Duration // to start and initialize a process; 0: 10s
	MaxRestarts  int           // per plugin and session; 0: 3
	Backoff      time.Duration // before the first restart, doubling; 0: 500ms
	Poll         time.Duration // how often plugins.json is checked; 0: 1s
}

// Change is a plugin instance of one session coming up or going down.
type Change struct {
	Session string
	Plugin  string
	Up      bool   // false: it failed; its tools and hooks are off
	Why     string // why it failed
	// Restarts is how many times the instance had been restarted in this
	// session before this change: 0 for its first start.
	Restarts int
}

// Runtime runs the enabled plugins of every session of one process. Wire it
// in with Contribute before agent.New.
type Runtime struct {
	o   Options
	log *slog.Logger

	// sessionsMu guards sessions.
	sessionsMu sync.Mutex
	sessions   map[string]*session

	watch stateWatch
}

// New makes a runtime; nothing runs until a session opens.
func New(o Options) *Runtime {
	if o.StartTimeout <= 0 {
		o.StartTimeout = 10 * time.Second
	}
	if o.MaxRestarts <= 0 {
		o.MaxRestarts = 3
	}
	if o.Backoff <= 0 {
		o.Backoff = 500 * time.Millisecond
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &Runtime{o: o, log: log, sessions: map[string]*session{}}
	r.watch.r = r
	return r
}

// Contribute adds the runtime's contributors to p's seams.
func (r *Runtime) Contribute(p *agent.Pipeline) {
	p.SessionOpen = append(p.SessionOpen, r.open)
	p.SessionClose = append(p.SessionClose, r.close)
	p.TurnStart = append(p.TurnStart, r.turnStart)
	p.TurnEnd = append(p.TurnEnd, r.turnEnd)
	p.BeforeRequest = append(p.BeforeRequest, r.beforeRequest)
	p.AfterResponse = append(p.AfterResponse, r.afterResponse)
	p.BeforeToolCall = append(p.BeforeToolCall, r.beforeToolCall)
	p.AfterToolCall = append(p.AfterToolCall, r.afterToolCall)
	p.BeforeAsk = append(p.BeforeAsk, r.beforeAsk)
	p.AfterAsk = append(p.AfterAsk, r.afterAsk)
	p.BeforeEdit = append(p.BeforeEdit, r.beforeEdit)
	p.AfterEdit = append(p.AfterEdit, r.afterEdit)
	p.TimelineRewind = append(p.TimelineRewind, r.timelineRewind)
	p.Commands = append(p.Commands, r.commands)
}

// Discover finds the plugins a session rooted at root would see.
func (r *Runtime) Discover(root string) ([]*Plugin, []Problem) {
	return Discover(r.roots(root))
}

// changed reports c to Options.Changed.
func (r *Runtime) changed(c Change) {
	if r.o.Changed != nil {
		r.o.Changed(c)
	}
}

func (r *Runtime) roots(root string) Roots {
	rs := Roots{Bundled: r.o.Bundled, Provisioned: r.o.Provisioned}
	if r.o.Home != "" {
		rs.User = filepath.Join(r.o.Home, "plugins")
	}
	if root != "" {
		rs.Project = filepath.Join(root, ".tandem", "plugins")
	}
	return rs
}

// lookup returns the plugins of a session; nil when it has none running.
func (r *Runtime) lookup(id string) *session {
	r.sessionsMu.Lock()
	defer r.sessionsMu.Unlock()
	return r.sessions[id]
}

func (r *Runtime) open(ctx context.Context, s *agent.Session) {
	ss := newSession(r, s)
	r.sessionsMu.Lock()
	r.sessions[s.ID()] = ss
	first := len(r.sessions) == 1
	r.sessionsMu.Unlock()
	if first {
		r.watch.start()
	}
	ss.first.Go(func() { ss.reconcile(true) })
}

func (r *Runtime) close(s *agent.Session) {
	r.sessionsMu.Lock()
	ss := r.sessions[s.ID()]
	delete(r.sessions, s.ID())
	last := len(r.sessions) == 0
	r.sessionsMu.Unlock()
	if last {
		r.watch.stop()
	}
	if ss != nil {
		ss.shutdown()
		ss.first.Wait() // after shutdown, it finds the session closed and ends
	}
}

// all returns the open sessions.
func (r *Runtime) all() []*session {
	r.sessionsMu.Lock()
	defer r.sessionsMu.Unlock()
	out := make([]*session, 0, len(r.sessions))
	for _, s := range r.sessions {
		out = append(out, s)
	}
	return out
}

// folder is where a plugin's files are on disk; a bundled plugin with
// code is copied out of the binary once per version.
func (r *Runtime) folder(p *Plugin) (string, error) {
	name, ok := strings.CutPrefix(p.Dir, "bundled:")
	if !ok {
		return p.Dir, nil
	}
	dir := filepath.Join(r.o.Home, "cache", "bundled-plugins", name+"@"+p.Manifest.Version)
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		return dir, nil
	}
	sub, err := fs.Sub(r.o.Bundled, name)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return "", err
	}
	// Copied beside and renamed into place, so that two sessions starting
	// it at once never see half a folder; the second rename loses.
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".extract-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := os.CopyFS(filepath.Join(tmp, "x"), sub); err != nil {
		return "", err
	}
	if err := os.Rename(filepath.Join(tmp, "x"), dir); err != nil && !fileExists(filepath.Join(dir, ManifestFile)) {
		return "", err
	}
	return dir, nil
}

// dataDir is a plugin's own persistent folder.
func (r *Runtime) dataDir(name string) string {
	return filepath.Join(r.o.Home, "plugin-data", name)
}

// pluginEnv is the environment of a plugin process: tandem's, without
// secrets (a plugin never sees an API key), plus where it lives.
func (r *Runtime) pluginEnv(dir, data string) []string {
	var env []string
	for _, kv := range config.CommandEnv(r.o.Environ, nil) {
		if !strings.HasPrefix(kv, sandbox.SettingsEnv+"=") {
			env = append(env, kv)
		}
	}
	return append(env, "TANDEM_PLUGIN_ROOT="+dir, "TANDEM_PLUGIN_DATA="+data)
}
