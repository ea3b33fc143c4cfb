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
	"github.com/tandemhq/tandem/agent/sandbox"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/internal/jsonrpc"
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

	mcp      *mcp.Manager // the plugin's MCP servers; nil when none
	mcpTools mcpTools

	// mu guards everything below.
	mu        sync.Mutex
	proc      *process
	offer     sdk.InitializeResult
	hooks     map[string]bool
	toolNames []string
	up        bool
	restarts  int
	overruns  int // hooks over budget in a row
}

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

// startMCP connects the plugin's MCP servers; their tools join the
// session as they come up. It runs once per instance.
func (i *instance) startMCP() {
	dir, err := i.rt.folder(i.st.Plugin)
	if err != nil {
		i.log.Error("MCP servers not started", "err", err)
		return
	}
	servers, err := MCPServers(i.st.Plugin, dir, i.rt.dataDir(i.name()))
	if err != nil {
		i.log.Error("some MCP servers skipped", "err", err)
	}
	if len(servers) == 0 {
		return
	}
	i.mcp = mcp.Start(i.ctx, mcp.Options{
		Root: i.sess.root, Servers: servers, Log: i.log, Version: i.rt.o.Version,
		OnTools: func(add []tools.Tool, remove []string) {
			i.mcpTools.update(add, remove)
			i.sess.s.UpdateTools(add, remove)
		},
		OnNotice: func(msg string) { i.log.Warn(msg) },
	})
	// The session's first request should offer their tools: wait a little.
	t := time.NewTimer(i.rt.o.StartTimeout)
	defer t.Stop()
	select {
	case <-i.mcp.Ready():
	case <-t.C:
	case <-i.ctx.Done():
	}
}

func (i *instance) launch() error {
	m := i.st.Manifest
	argv, err := commandLine(m.Main)
	if err != nil {
		return err
	}
	dir, err := i.rt.folder(i.st.Plugin)
	if err != nil {
		return err
	}
	data := i.rt.dataDir(m.Name)
	if err := os.MkdirAll(data, 0o700); err != nil {
		return err
	}
	proc, err := spawn(spawnSpec{
		dir: dir, argv: argv, env: i.rt.pluginEnv(dir, data), stderr: i.logf, log: i.log,
		policy: i.policy(data), helper: i.rt.o.Sandbox.Helper,
		handler: i.hostMethods().Handle,
		garbage: func(p *process, line string) {
			i.fault(p, fmt.Sprintf("wrote something that is not a JSON message to stdout: %q", line))
		},
	})
	if err != nil {
		return err
	}
	go i.watch(proc)
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
	i.hooks = i.grantedHooks(res.Hooks)
	i.toolNames = nil
	for _, t := range added {
		i.toolNames = append(i.toolNames, t.Info().Name)
	}
	i.mu.Unlock()
	if len(added) > 0 {
		i.sess.s.UpdateTools(added, nil)
	}
	i.log.Info("started", "session", i.sess.id, "tools", len(added), "hooks", len(i.hooks))
	return nil
}

// policy confines the plugin's process: it may write its data folder, the
// temp folder and its permissions.filesystem folders, never the workspace
// (its changes to the user's files go through tools and the editor), and
// reach the network only with permissions.network.
func (i *instance) policy(data string) sandbox.Policy {
	s := i.rt.o.Sandbox
	p := sandbox.PolicyFor(s, "")
	if p.Mode == sandbox.ModeReadOnly {
		p.Mode = sandbox.ModeWorkspaceWrite // read-only is about the workspace, which is not writable here anyway
	}
	p.Writable = append(p.Writable, data)
	for _, g := range i.grants()[1:] {
		if st, err := os.Stat(g); err == nil && st.IsDir() {
			p.Writable = append(p.Writable, g)
		}
	}
	// Denying the network needs Landlock ABI 4; on older kernels a plugin
	// keeps it rather than failing to start (the user's own "deny" still
	// applies, and fails, as it does for commands).
	if len(i.st.Manifest.Permissions.Network) == 0 && sandbox.LandlockABI() >= 4 {
		p.NetworkDeny = true
	}
	return p
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
			go p.close(0)
		}
		return
	}
	names := i.toolNames
	i.up, i.toolNames, i.hooks = false, nil, nil
	restart := i.restarts < i.rt.o.MaxRestarts
	delay := i.rt.o.Backoff << i.restarts
	i.restarts++
	i.mu.Unlock()
	i.log.Error("plugin failed; its tools and hooks are off for this session", "session", i.sess.id, "why", why)
	i.rt.log.Warn("plugin failed", "plugin", i.name(), "session", i.sess.id, "why", why)
	if len(names) > 0 {
		i.sess.s.UpdateTools(nil, names)
	}
	if p != nil {
		go p.close(0)
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
	if i.mcp != nil {
		i.mcp.Close()
		if removeTools {
			i.sess.s.UpdateTools(nil, i.mcpTools.all())
		}
	}
	i.mu.Lock()
	p, names := i.proc, i.toolNames
	i.proc, i.up, i.toolNames, i.hooks = nil, false, nil, nil
	i.mu.Unlock()
	if removeTools && len(names) > 0 {
		i.sess.s.UpdateTools(nil, names)
	}
	if p != nil {
		p.close(time.Second)
	}
	i.logf.Close()
}

// current returns the process when the instance is up and implements
// hook ("" for any call).
func (i *instance) current(hook string) *process {
	i.mu.Lock()
	defer i.mu.Unlock()
	if !i.up || (hook != "" && !i.hooks[hook]) {
		return nil
	}
	return i.proc
}

// call makes one request to the plugin under budget (0: only ctx). Over
// budget, the call is skipped and logged; too many in a row, or a dead
// connection, is a fault. The error says what happened, for the log.
func (i *instance) call(ctx context.Context, p *process, method string, budget time.Duration, params, result any) error {
	if budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	err := p.conn.Call(ctx, method, params, result)
	if err == nil && p.bad.Load() {
		// Nothing a process says after breaking the protocol is trusted.
		return errGarbage
	}
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil:
		i.mu.Lock()
		i.overruns = 0
		i.mu.Unlock()
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		i.log.Warn("over its budget; skipped", "method", method, "budget", budget, "session", i.sess.id)
		i.mu.Lock()
		i.overruns++
		hung := i.overruns >= hangAfter
		i.mu.Unlock()
		if hung {
			i.fault(p, fmt.Sprintf("%d calls in a row ran over budget", hangAfter))
		}
	case ctx.Err() != nil:
	case errors.As(err, &rpcErr):
		i.log.Warn("answered with an error; skipped", "method", method, "err", err)
	case errors.Is(err, jsonrpc.ErrClosed):
		i.fault(p, "its connection closed")
	default:
		i.log.Warn("unusable answer; skipped", "method", method, "err", err)
	}
	return err
}

// notify sends an observing hook without waiting for the plugin (but not
// longer than its budget for room in the outbox).
func (i *instance) notify(ctx context.Context, hook string, params any) {
	p := i.current(hook)
	if p == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), i.budget())
	defer cancel()
	if err := p.conn.Notify(ctx, sdk.HookPrefix+hook, params); err != nil {
		i.log.Warn("hook not delivered", "hook", hook, "err", err)
	}
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
