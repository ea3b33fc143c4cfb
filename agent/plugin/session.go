package plugin

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/tandemhq/tandem/agent"
)

// session is the plugins of one agent session.
type session struct {
	r    *Runtime
	s    *agent.Session
	id   string
	root string
	// ready is closed once the first start of the session's plugins is
	// over (each up or failed), so the first turn sees their tools.
	ready     chan struct{}
	readyOnce sync.Once

	// reconcileMu makes reconciles run one at a time.
	reconcileMu sync.Mutex
	// first is the first reconcile's goroutine, which the runtime's close
	// waits for: it may still be waiting for reconcileMu when shutdown
	// has taken it.
	first sync.WaitGroup

	// mu guards insts, rev, closed, prompt, start and model.
	mu     sync.Mutex
	insts  []*instance // in registration order
	rev    int         // bumped whenever the set of instances changes
	closed bool
	prompt promptCache
	start  time.Time // of the model request in flight, for its duration
	model  string    // and its model
}

func newSession(r *Runtime, s *agent.Session) *session {
	return &session{r: r, s: s, id: s.ID(), root: s.Root(), ready: make(chan struct{})}
}

func (ss *session) mode() string { return string(ss.s.Mode()) }

// instances returns the running set, in order.
func (ss *session) instances() []*instance {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.insts
}

// reconcile makes the session's instances match the plugins that should
// run now: it starts the newly enabled ones and stops the disabled ones.
// Only plugins with code run a process; declarative ones are read by the
// customization loaders.
func (ss *session) reconcile(first bool) {
	ss.reconcileMu.Lock()
	defer ss.reconcileMu.Unlock()
	defer ss.readyOnce.Do(func() { close(ss.ready) })
	want := ss.wanted()
	ss.mu.Lock()
	if ss.closed {
		ss.mu.Unlock()
		return
	}
	var keep, stop []*instance
	for _, in := range ss.insts {
		if i := slices.IndexFunc(want, func(s *Status) bool { return same(s, in.st) }); i >= 0 {
			keep = append(keep, in)
			want = slices.Delete(want, i, i+1)
		} else {
			stop = append(stop, in)
		}
	}
	var started []*instance
	for _, st := range want {
		in, err := ss.newInstance(st)
		if err != nil {
			ss.r.log.Warn("plugin not started", "plugin", st.Manifest.Name, "err", err)
			continue
		}
		started = append(started, in)
	}
	insts := append(keep, started...)
	slices.SortFunc(insts, func(a, b *instance) int { return compareNames(a.name(), b.name()) })
	changed := len(stop) > 0 || len(started) > 0
	ss.insts = insts
	if changed {
		ss.rev++
	}
	ss.mu.Unlock()
	for _, in := range stop {
		in.close(true)
	}
	var wg sync.WaitGroup
	for _, in := range started {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in.startMCP()
			in.start()
		}()
	}
	wg.Wait()
	if changed && !first {
		ss.r.log.Info("plugins changed", "session", ss.id, "started", len(started), "stopped", len(stop))
	}
}

// wanted lists the active plugins with something to run for this
// session's root: a process, or MCP servers.
func (ss *session) wanted() []*Status {
	found, probs := ss.r.Discover(ss.root)
	for _, p := range probs {
		ss.r.log.Warn("plugin skipped", "dir", p.Dir, "err", p.Err)
	}
	st, err := LoadState(ss.r.o.Home)
	if err != nil {
		ss.r.log.Warn("plugin state unreadable; no plugin runs", "err", err)
		return nil
	}
	var out []*Status
	for _, s := range Active(Resolve(found, st, ss.r.o.Version)) {
		if s.Manifest.Main != "" || len(s.Manifest.Contributes.MCPServers) > 0 || (s.Claude != nil && s.Claude.MCP != "") {
			out = append(out, s)
		}
	}
	return out
}

// same reports whether a running instance is still what the user wants:
// the same folder, version, settings and AI consent.
func same(want, have *Status) bool {
	return want.Dir == have.Dir && want.Manifest.Version == have.Manifest.Version &&
		want.Manifest.Main == have.Manifest.Main && choiceKey(want.Choice) == choiceKey(have.Choice)
}

func choiceKey(c *Choice) string {
	if c == nil {
		return ""
	}
	ai := "0"
	if c.AIConsent {
		ai = "1"
	}
	return ai + string(c.Settings)
}

func compareNames(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (ss *session) newInstance(st *Status) (*instance, error) {
	f, err := openLog(ss.r.o.Home, st.Manifest.Name)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &instance{
		rt: ss.r, sess: ss, st: st, logf: f, ctx: ctx, end: cancel,
		log: slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug})).With("plugin", st.Manifest.Name),
	}, nil
}

// waitReady waits, within ctx and a bound, for the first start.
func (ss *session) waitReady(ctx context.Context) {
	t := time.NewTimer(ss.r.o.StartTimeout)
	defer t.Stop()
	select {
	case <-ss.ready:
	case <-ctx.Done():
	case <-t.C:
	}
}

// shutdown stops every instance; the session is gone.
func (ss *session) shutdown() {
	ss.reconcileMu.Lock()
	defer ss.reconcileMu.Unlock()
	ss.mu.Lock()
	ss.closed = true
	insts := ss.insts
	ss.insts = nil
	ss.mu.Unlock()
	var wg sync.WaitGroup
	for _, in := range insts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in.close(false)
		}()
	}
	wg.Wait()
}
