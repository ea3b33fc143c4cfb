package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/tandemhq/tandem/internal/jsonrpc"
	"github.com/tandemhq/tandem/plugin/sdk"
)

// serveInProcess serves pl, a plugin compiled into tandem, by calling its
// handlers as Go functions (sdk.Direct) on the caller's goroutine: a hook
// is a function call, with no encoding, pipe or goroutine of the plugin's
// own, where the protocol costs a few thread switches per message (the
// checkpoints plugin's hooks run on every edit). It is what spawn is for
// other plugins: the same faults and restarts, but no process (a Go
// process of its own per session costs megabytes) and no sandbox, which
// guards against code tandem does not ship.
//
// A panic in one of its handlers is recovered and makes the plugin
// failed (sp.panicked); one on a goroutine the plugin starts itself ends
// tandem, as any goroutine of this process would. A handler runs until
// it returns: a hook's budget is its context's deadline, which a bundled
// plugin honours (an answer after it is dropped and counted as over
// budget, but the caller waited for it).
func serveInProcess(pl *sdk.Plugin, sp spawnSpec) *process {
	p := &process{done: make(chan struct{})}
	dp := &directPlugin{p: p, sp: sp}
	dp.plugin = pl.Direct(hostCaller{h: sp.handler, log: sp.log})
	p.direct, p.conn = dp, dp
	return p
}

// directPlugin is the host's side of a plugin called in process: it
// counts the calls under way, so close can wait for them, and turns a
// handler's panic into the plugin's fault.
type directPlugin struct {
	plugin *sdk.Direct
	p      *process
	sp     spawnSpec

	mu     sync.Mutex
	busy   int           // calls under way
	closed bool          // close began: no new calls
	idle   chan struct{} // closed when busy is 0 after close began
	once   sync.Once     // ends p
}

func (d *directPlugin) Call(ctx context.Context, method string, params, result any) error {
	if !d.enter() {
		return jsonrpc.ErrClosed
	}
	defer d.leave()
	return d.check(d.plugin.Call(ctx, method, params, result))
}

func (d *directPlugin) Notify(ctx context.Context, method string, params any) error {
	if !d.enter() {
		return jsonrpc.ErrClosed
	}
	defer d.leave()
	return d.check(d.plugin.Notify(ctx, method, params))
}

// check reports a handler's panic as the plugin's failure.
func (d *directPlugin) check(err error) error {
	var pe *sdk.PanicError
	if errors.As(err, &pe) {
		d.sp.log.Error("plugin panicked", "method", pe.Method, "panic", pe.Value, "stack", string(pe.Stack))
		if d.sp.panicked != nil {
			d.sp.panicked(d.p, fmt.Sprintf("panicked: %v", pe.Value))
		}
	}
	return err
}

func (d *directPlugin) enter() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return false
	}
	d.busy++
	return true
}

func (d *directPlugin) leave() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.busy--
	if d.busy == 0 && d.idle != nil {
		close(d.idle)
		d.idle = nil
	}
}

// close tells the plugin to shut down (sdk.Plugin.Shutdown), refuses new
// calls, waits up to grace for those under way, and ends the process. A
// handler still running then cannot be stopped: it is left behind, and
// the plugin counted as failed.
func (d *directPlugin) close(grace time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	_ = d.Call(ctx, sdk.MethodShutdown, nil, nil)
	cancel()
	d.mu.Lock()
	d.closed = true
	idle := d.idle
	if d.busy > 0 && idle == nil {
		idle = make(chan struct{})
		d.idle = idle
	}
	d.mu.Unlock()
	var err error
	// Without grace (a kill, after a fault) the calls under way are left
	// to finish on their callers' goroutines.
	if idle != nil && grace > 0 {
		select {
		case <-idle:
		case <-time.After(grace):
			d.sp.log.Error("plugin did not stop; left running", "plugin", d.sp.argv)
			err = errors.New("it did not stop when told to")
		}
	}
	d.once.Do(func() {
		d.p.exitErr = err
		close(d.p.done)
	})
	<-d.p.done
}

// hostCaller is the plugin's way back into the host's methods (h, those
// of hostcalls.go) in process. Host calls are few (a marker per turn, a
// log line), so they keep the protocol's encoding: the host's methods
// are written against it, and are checked against it.
type hostCaller struct {
	h   jsonrpc.Handler
	log *slog.Logger
}

func (h hostCaller) Call(ctx context.Context, method string, params, result any) error {
	res, err := h.handle(ctx, jsonrpc.Int64ID(1), method, params)
	if err != nil || result == nil {
		return err
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, result)
}

// Notify drops the handler's error: a notification has no answer.
func (h hostCaller) Notify(ctx context.Context, method string, params any) error {
	h.handle(ctx, jsonrpc.ID{}, method, params)
	return ctx.Err()
}

// handle runs the host's handler as the connection would: a panic and an
// error become the error the plugin reads.
func (h hostCaller) handle(ctx context.Context, id jsonrpc.ID, method string, params any) (res any, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var raw json.RawMessage
	if params != nil {
		if raw, err = json.Marshal(params); err != nil {
			return nil, err
		}
	}
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: the %s handler failed", method)
			h.log.Error("host call panicked", "method", method, "panic", v, "stack", string(debug.Stack()))
		}
	}()
	res, err = h.h(ctx, &jsonrpc.Request{ID: id, Method: method, Params: raw})
	var rerr *jsonrpc.Error
	if err != nil && !errors.As(err, &rerr) {
		err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	return res, err
}
