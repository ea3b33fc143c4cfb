package jsonrpc

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// inflight is one request being handled.
type inflight struct {
	cancel          context.CancelFunc
	cancelledByPeer atomic.Bool

	afterMu sync.Mutex
	after   []func()
}

type inflightKey struct{}

// AfterResponse arranges for fn to run once the response to the request
// whose handler received ctx has been written successfully (it does not
// run after an error response or a failed write). It runs on the handler's
// goroutine, after the write; sends it makes therefore follow the response.
// Outside a request handler it does nothing and returns false.
func AfterResponse(ctx context.Context, fn func()) bool {
	f, _ := ctx.Value(inflightKey{}).(*inflight)
	if f == nil {
		return false
	}
	f.afterMu.Lock()
	f.after = append(f.after, fn)
	f.afterMu.Unlock()
	return true
}

// dispatch runs the handler for a request or notification: inline on the
// read loop when Options.Inline says so, else in a goroutine of its own.
func (c *Conn) dispatch(ctx context.Context, m *message) {
	req := &Request{ID: m.id, Method: m.method, Params: m.params}
	if c.o.Cancel.Method != "" && m.method == c.o.Cancel.Method && req.IsNotification() {
		c.cancelRequest(m.params)
		return
	}
	hctx, cancel := context.WithCancel(ctx)
	f := &inflight{cancel: cancel}
	hctx = context.WithValue(hctx, inflightKey{}, f)
	track := !req.IsNotification() && !req.ID.IsNull()

	inline := c.o.Inline != nil && c.o.Inline(m.method)
	c.inflightMu.Lock()
	if c.stopped {
		c.inflightMu.Unlock()
		cancel()
		return
	}
	if !inline {
		select {
		case c.slots <- struct{}{}:
		default:
			c.inflightMu.Unlock()
			cancel()
			c.log.Warn("jsonrpc: too many requests in flight; refusing one", "method", m.method, "limit", c.o.MaxInFlight)
			if !req.IsNotification() {
				c.reply(ctx, req.ID, nil, NewError(CodeInternalError, "too many requests in flight (limit %d); retry later", c.o.MaxInFlight))
			}
			return
		}
	}
	if track {
		if _, dup := c.inflight[req.ID.key()]; dup {
			// A peer reusing an id in flight could not tell the answers
			// apart; the second request is refused, the first goes on.
			c.inflightMu.Unlock()
			cancel()
			if !inline {
				<-c.slots
			}
			c.reply(ctx, req.ID, nil, NewError(CodeInvalidRequest, "Invalid request: id %s is already in use by a request in flight", req.ID))
			return
		}
		c.inflight[req.ID.key()] = f
	}
	c.handlers.Add(1)
	c.inflightMu.Unlock()

	release := func() {}
	if !inline {
		release = func() { <-c.slots }
	}
	run := func() {
		defer c.handlers.Done()
		defer cancel()
		c.run(hctx, f, req, track, release)
	}
	if inline {
		run()
	} else {
		go run()
	}
}

// run calls the handler, answers the request and runs its after-response
// functions. The request stops counting as in flight (release, then
// forgotten by id) before its answer is written: a peer that has the
// answer may send the next request at once and must find room for it.
func (c *Conn) run(ctx context.Context, f *inflight, req *Request, track bool, release func()) {
	result, err := c.call(ctx, req)
	if track {
		c.inflightMu.Lock()
		delete(c.inflight, req.ID.key())
		c.inflightMu.Unlock()
	}
	release()
	if req.IsNotification() {
		if err != nil {
			c.log.Debug("jsonrpc: notification handler failed", "method", req.Method, "err", err)
		}
		return
	}
	rerr := c.toError(f, err)
	f.afterMu.Lock()
	after := f.after
	f.after = nil
	f.afterMu.Unlock()
	// The response goes out even when the handler's ctx was cancelled.
	sendCtx := context.WithoutCancel(ctx)
	if rerr != nil || len(after) == 0 {
		if err := c.reply(sendCtx, req.ID, result, rerr); err != nil {
			c.log.Debug("jsonrpc: response not sent", "method", req.Method, "err", err)
		}
		return
	}
	body, err := encodeResponse(req.ID, result, nil)
	if err == nil {
		err = c.send(sendCtx, body, true)
	}
	if err != nil {
		// Too large or not encodable: reply sends the error instead.
		if rerr := c.reply(sendCtx, req.ID, result, nil); rerr != nil {
			c.log.Debug("jsonrpc: response not sent", "method", req.Method, "err", rerr)
		}
		return
	}
	for _, fn := range after {
		fn()
	}
}

// call runs the handler, turning a panic into an error.
func (c *Conn) call(ctx context.Context, req *Request) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("jsonrpc: handler panicked", "method", req.Method, "panic", p, "stack", string(debug.Stack()))
			result, err = nil, NewError(CodeInternalError, "internal error: the %s handler failed", req.Method)
		}
	}()
	if c.o.Handler == nil {
		return nil, MethodNotFound(req.Method)
	}
	return c.o.Handler(ctx, req)
}

// toError is the error response for a handler's error.
func (c *Conn) toError(f *inflight, err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if f.cancelledByPeer.Load() && errors.Is(err, context.Canceled) {
		return &Error{Code: CodeCancelled, Message: "the request was cancelled"}
	}
	return &Error{Code: CodeInternalError, Message: err.Error()}
}

// MethodNotFound is the error for a method nobody handles.
func MethodNotFound(method string) *Error {
	return NewError(CodeMethodNotFound, "Method not found: %q", method)
}

// InvalidParams is the error for params that do not fit the method.
func InvalidParams(format string, args ...any) *Error {
	return &Error{Code: CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}
