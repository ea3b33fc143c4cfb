package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// Caller is how one side reaches the other: a JSON-RPC connection
// (*jsonrpc.Conn), or a Direct plugin and its host in one process.
type Caller interface {
	Call(ctx context.Context, method string, params, result any) error
	Notify(ctx context.Context, method string, params any) error
}

// Direct is a plugin compiled into its host and served there without the
// protocol's transport: Call and Notify run the plugin's handlers on the
// caller's goroutine with the caller's typed values, so a hook costs a
// function call rather than an encoding, a pipe and a switch of threads
// each way. The answers are the ones Serve would give, errors included:
// a handler's error is a *jsonrpc.Error as the host would have read it.
//
// What the transport gave for free is the host's to keep: a handler runs
// until it returns, whatever its context says (a late answer is reported
// as the context's error, but the caller waited for it), and values are
// shared, not copied, so neither side may change what it handed over.
type Direct struct {
	shutdown func(ctx context.Context)
	routes   map[string]route
	// observing serializes the observing hooks, as Serve's read loop
	// does: each runs after the ones sent before it.
	observing sync.Mutex
}

// Direct serves p for one session in this process; host is where its
// Host's calls go.
func (p *Plugin) Direct(host Caller) *Direct {
	h := &Host{conn: host}
	return &Direct{routes: p.routes(h), shutdown: func(ctx context.Context) { p.shutdown(ctx, h) }}
}

// PanicError is a handler's panic, recovered by Direct: the plugin is
// broken, and its host should treat it as failed.
type PanicError struct {
	Method string
	Value  any
	Stack  []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("the %s handler panicked: %v", e.Method, e.Value)
}

// Call runs method's handler with params (its params type, a pointer to
// it, or anything that encodes to it) and stores the answer in result (a
// pointer to the result type or to a pointer to it, or anything it
// decodes into; nil drops it).
func (d *Direct) Call(ctx context.Context, method string, params, result any) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer recovered(method, &err)
	if method == MethodShutdown {
		d.shutdown(ctx) // no loop to stop: only what the plugin left running
		return ctx.Err()
	}
	r, ok := d.routes[method]
	if !ok || r.direct == nil {
		return jsonrpc.MethodNotFound(method)
	}
	err = r.direct(ctx, params, result)
	if cerr := ctx.Err(); cerr != nil {
		return cerr // too late: the answer is not used
	}
	var rerr *jsonrpc.Error
	if err != nil && !errors.As(err, &rerr) {
		err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	return err
}

// Notify runs an observing hook's handler; one the plugin does not
// observe is dropped. It returns ctx's error when the handler returned
// after ctx ended.
func (d *Direct) Notify(ctx context.Context, method string, params any) (err error) {
	r, ok := d.routes[method]
	if !ok || r.observe == nil {
		return nil
	}
	raw, ok := params.(json.RawMessage)
	if !ok {
		// Observe takes the params as JSON, the one encoding left.
		if raw, err = json.Marshal(params); err != nil {
			return err
		}
	}
	d.observing.Lock()
	defer d.observing.Unlock()
	defer recovered(method, &err)
	r.observe(ctx, raw)
	return ctx.Err()
}

// recovered turns a panic of the handler of method into a *PanicError.
func recovered(method string, err *error) {
	if v := recover(); v != nil {
		*err = &PanicError{Method: method, Value: v, Stack: debug.Stack()}
	}
}

// route is one method of a plugin: its JSON-RPC handler, and the direct
// call of the same function (nil for an observing hook, which has
// observe instead).
type route struct {
	rpc     jsonrpc.Handler
	direct  func(ctx context.Context, params, result any) error
	observe func(ctx context.Context, params json.RawMessage)
}

// typed makes both forms of a method from one typed function.
func typed[P, R any](fn func(context.Context, P) (R, error)) route {
	return route{rpc: jsonrpc.Typed(fn), direct: func(ctx context.Context, params, result any) error {
		in, err := paramsOf[P](params)
		if err != nil {
			return err
		}
		out, err := fn(ctx, in)
		if err != nil {
			return err
		}
		return store(out, result)
	}}
}

// paramsOf is params as a P, validated as jsonrpc.Typed validates.
func paramsOf[P any](params any) (P, error) {
	var in P
	switch v := params.(type) {
	case P:
		in = v
	case *P:
		in = *v
	case nil:
	default:
		// Not the handler's own type (a map, a raw message): as the
		// protocol would, through JSON.
		b, err := json.Marshal(v)
		if err == nil {
			err = json.Unmarshal(b, &in)
		}
		if err != nil {
			return in, jsonrpc.InvalidParams("invalid params: %v", err)
		}
	}
	if v, ok := any(&in).(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return in, jsonrpc.InvalidParams("invalid params: %v", err)
		}
	}
	return in, nil
}

// store puts out where result points.
func store[R any](out R, result any) error {
	switch r := result.(type) {
	case nil:
	case *R:
		*r = out
	case **R:
		*r = &out
	default:
		b, err := json.Marshal(out)
		if err == nil {
			err = json.Unmarshal(b, result)
		}
		return err
	}
	return nil
}
