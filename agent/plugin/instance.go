package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/tandemhq/tandem/agent/mcp"
	"github.com/tandemhq/tandem/plugin/sdk"
)

var errGarbage = errors.New("the plugin wrote something that is not a JSON message")

// hangAfter is how many hooks in a row may run over budget before the
// plugin counts as hung rather than slow.
const hangAfter = 3

// instance is one plugin running for one session: its process (restarted
// after a failure, with backoff), what it offered at initialize, and
// whether it is up. Hooks and tools of an instance that is down are
// skipped; the session goes on without them.
type instance struct {
	rt   *Runtime
	sess *session
	st   *Status
	log  *slog.Logger // to the plugin's own log file
	logf *os.File
	ctx  context.Context // ends when the instance is closed
	end  context.CancelFunc
	wg   sync.WaitGroup // the restart goroutine
	// bg is the goroutines that watch a process or stop one (owned);
	// close waits for them once closed stops new ones being added.
	bg sync.WaitGroup

	mcpTools mcpTools

	// mu guards everything below.
	mu        sync.Mutex
	proc      *process
	offer     sdk.InitializeResult
	hooks     map[string]bool
	toolNames []string
	up        bool
	restarts  int
	overruns  int          // hooks over budget in a row
	mcp       *mcp.Manager // the plugin's MCP servers; nil when none
	detachMCP func()       // takes mcp out of the session's connections
	closed    bool         // close has taken the process: owned starts nothing
}

// owned runs f on a goroutine close waits for, and reports false, running
// nothing, once close has begun waiting: a WaitGroup may not grow then.
func (i *instance) owned(f func()) bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.closed {
		return false
	}
	i.bg.Add(1)
	go func() {
		defer i.bg.Done()
		f()
	}()
	return true
}

// stopLater stops p on an owned goroutine: fault runs on p's own
// connection or watcher, which p's stopping waits for. Once close has
// begun, p is closed already: close stopped the running process, and
// every earlier one was stopped when it was replaced.
func (i *instance) stopLater(p *process) { i.owned(func() { p.close(0) }) }

func (i *instance) name() string { return i.st.Manifest.Name }

// budget is the plugin's per-hook time.
func (i *instance) budget() time.Duration {
	return time.Duration(i.st.Manifest.HookTimeoutMs) * time.Millisecond
}

// start runs the process and initializes it for the session. A failure is
// a fault like any other: logged, and retried with backoff.
func (i *instance) start() {
	if i.st.Manifest.Main == "" {
		return
	}
	if err := i.launch(); err != nil {
		i.fault(nil, err.Error())
	}
}

func (i *instance) launch() error {
	m := i.st.Manifest
	argv, err := commandLine(m.Main)
	if err != nil {
		return err
	}
	var inProcess *sdk.Plugin
	if i.st.Scope == ScopeBundled && argv[0] == "tandem" {
		// A bundled plugin served by tandem itself: in this process when
		// it is compiled in, else by running tandem's own binary.
		if len(argv) == 3 && argv[1] == "__plugin" && i.rt.o.InProcess != nil {
			inProcess = i.rt.o.InProcess(argv[2])
		}
		if i.rt.o.Self != "" {
			argv[0] = i.rt.o.Self
		}
	}
	dir, err := i.rt.folder(i.st.Plugin)
	if err != nil {
		return err
	}
	data := i.rt.dataDir(m.Name)
	if err := os.MkdirAll(data, 0o700); err != nil {
		return err
	}
	spec := spawnSpec{
		dir: dir, argv: argv, env: i.rt.pluginEnv(dir, data), stderr: i.logf, log: i.log,
		policy: i.policy(data), helper: i.rt.o.Sandbox.Helper,
		handler: i.hostMethods().Handle,
		garbage: func(p *process, line string) {
			i.fault(p, fmt.Sprintf("wrote something that is not a JSON message to stdout: %q", line))
		},
		panicked: i.fault,
	}
	var proc *process
	if inProcess != nil {
		proc = serveInProcess(inProcess, spec)
	} else if proc, err = spawn(spec); err != nil {
		return err
	}
	if !i.owned(func() { i.watch(proc) }) {
		proc.close(0) // the instance closed while this one started
		return errors.New("the session closed while the plugin started")
	}
	settings, err := m.Settings(i.settings())
	if err != nil {
		proc.close(time.Second)
		return err
	}
	ctx, cancel := context.WithTimeout(i.ctx, i.rt.o.StartTimeout)
	defer cancel()
	var res sdk.InitializeResult
	err = proc.conn.Call(ctx, sdk.MethodInitialize, sdk.InitializeParams{
		ProtocolVersion: sdk.ProtocolVersion, SessionID: i.sess.id, Roots: []string{i.sess.root},
		Mode: i.sess.mode(), Config: settings, Permissions: m.Permissions, AIConsent: i.aiConsent(),
		PluginRoot: dir, DataDir: data,
	}, &res)
	if err == nil && proc.bad.Load() {
		err = errGarbage
	}
	if err != nil {
		proc.close(time.Second)
		return fmt.Errorf("initialize: %w", err)
	}
	if res.ProtocolVersion != "" && res.ProtocolVersion != sdk.ProtocolVersion {
		proc.close(time.Second)
		return fmt.Errorf("it speaks protocol %q; tandem speaks %q", res.ProtocolVersion, sdk.ProtocolVersion)
	}
	added := i.tools(res.Tools)
	i.mu.Lock()
	if i.ctx.Err() != nil {
		i.mu.Unlock()
		proc.close(time.Second)
		return nil
	}
	i.proc, i.offer, i.up, i.overruns = proc, res, true, 0
	restarts := i.restarts
	i.hooks = i.grantedHooks(res.Hooks)
	i.toolNames = nil
	for _, t := range added {
		i.toolNames = append(i.toolNames, t.Info().Name)
	}
	i.mu.Unlock()
	if len(added) > 0 {
		i.sess.s.UpdateTools(added, nil)
	}
	select {
	case <-i.sess.ready:
		// A restart or a plugin enabled later: the editor's list is stale.
		// (The session's first list waits for the first start instead.)
		if len(res.Commands) > 0 {
			i.sess.s.CommandsChanged()
		}
	default:
	}
	i.log.Info("started", "session", i.sess.id, "tools", len(added), "hooks", len(i.hooks))
	i.rt.changed(Change{Session: i.sess.id, Plugin: i.name(), Up: true, Restarts: restarts})
	return nil
}

// grantedHooks keeps the hooks the plugin implements and may run:
// deciding hooks need permissions.lifecycle, observing ones lifecycle or
// events. The rest are logged and never called.
func (i *instance) grantedHooks(names []string) map[string]bool {
	p := i.st.Manifest.Permissions
	out := map[string]bool{}
	for _, n := range names {
		switch {
		case slices.Contains(sdk.DecidingHooks, n) && p.Lifecycle,
			slices.Contains(sdk.ObservingHooks, n) && (p.Lifecycle || p.Events):
			out[n] = true
		default:
			i.log.Warn("hook not used: unknown, or not granted by the plugin's permissions", "hook", n)
		}
	}
	return out
}

// watch turns the process ending on its own into a fault.
func (i *instance) watch(p *process) {
	<-p.done
	if i.ctx.Err() == nil {
		i.fault(p, fmt.Sprintf("its process exited (%v)", p.exitErr))
	}
}

// fault takes the plugin out of the session: tools removed, hooks
// skipped, process stopped; then it restarts after a backoff, up to
// MaxRestarts times per session. p is the process that failed (nil: the
// start failed); a fault of a process already replaced is ignored.
func (i *instance) fault(p *process, why string) {
	i.mu.Lock()
	// Only the running process can fail the instance: one still starting
	// fails its launch instead, and one already replaced is just stopped.
	if stale := p != nil && p != i.proc; i.ctx.Err() != nil || stale || (p != nil && !i.up) {
		i.mu.Unlock()
		if p != nil {
			i.stopLater(p)
		}
		return
	}
	names := i.toolNames
	i.up, i.toolNames, i.hooks = false, nil, nil
	restarts := i.restarts
	restart := i.restarts < i.rt.o.MaxRestarts
	delay := i.rt.o.Backoff << i.restarts
	i.restarts++
	i.mu.Unlock()
	i.log.Error("plugin failed; its tools and hooks are off for this session", "session", i.sess.id, "why", why)
	i.rt.log.Warn("plugin failed", "plugin", i.name(), "session", i.sess.id, "why", why)
	if len(names) > 0 {
		i.sess.s.UpdateTools(nil, names)
	}
	i.rt.changed(Change{Session: i.sess.id, Plugin: i.name(), Why: why, Restarts: restarts})
	if p != nil {
		i.stopLater(p)
	}
	if !restart {
		i.log.Error("not restarted again in this session", "session", i.sess.id, "restarts", i.rt.o.MaxRestarts)
		return
	}
	i.wg.Add(1)
	go func() {
		defer i.wg.Done()
		select {
		case <-time.After(delay):
			i.start()
		case <-i.ctx.Done():
		}
	}()
}

// close stops the instance for good: no restart, tools removed, process
// shut down.
func (i *instance) close(removeTools bool) {
	i.end()
	i.wg.Wait()
	i.mu.Lock()
	m, detach := i.mcp, i.detachMCP
	i.mu.Unlock()
	if m != nil {
		detach()
		m.Close()
		if removeTools {
			i.sess.s.UpdateTools(nil, i.mcpTools.all())
		}
	}
	i.mu.Lock()
	p, names, cmds := i.proc, i.toolNames, len(i.offer.Commands) > 0
	i.proc, i.up, i.toolNames, i.hooks = nil, false, nil, nil
	i.mu.Unlock()
	if removeTools && len(names) > 0 {
		i.sess.s.UpdateTools(nil, names)
	}
	if removeTools && cmds {
		i.sess.s.CommandsChanged() // the plugin was disabled: its commands go
	}
	if p != nil {
		p.close(time.Second)
	}
	i.mu.Lock()
	i.closed = true
	i.mu.Unlock()
	i.bg.Wait() // the watchers and stops of this and earlier processes
	i.logf.Close()
}

// settings and aiConsent read the user's choice for this plugin.
func (i *instance) settings() json.RawMessage {
	if c := i.st.Choice; c != nil {
		return c.Settings
	}
	return nil
}

func (i *instance) aiConsent() bool {
	return i.st.Manifest.Permissions.AI && i.st.Choice != nil && i.st.Choice.AIConsent
}

// openLog opens the plugin's log file under $TANDEM_HOME/logs.
func openLog(home, name string) (*os.File, error) {
	dir := filepath.Join(home, "logs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return os.OpenFile(filepath.Join(dir, "plugin-"+name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
}
