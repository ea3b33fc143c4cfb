package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
)

// codeRequestCancelled is LSP's answer to a request the client cancelled.
const codeRequestCancelled jsonrpc2.Code = -32800

// errConnClosed ends calls still waiting when the client goes away.
var errConnClosed = errors.New("lsp: the client closed the connection")

// errStop, returned by a notification handler, ends the read loop (exit).
var errStop = errors.New("lsp: stop")

// handler is what the connection dispatches to.
type handler interface {
	// inline reports whether a request must run on the read loop, in
	// arrival order, before the next message is read (lifecycle requests).
	// Notifications always run inline: they are quick and order-sensitive
	// (didChange must land before the request that follows it).
	inline(method string) bool
	// handle serves one message. For notifications the result is dropped;
	// errStop ends the connection.
	handle(ctx context.Context, method string, params json.RawMessage, isCall bool) (any, error)
}

// afterReply lets a handler run code once its response is on the wire
// (newSession flushes updates the session produced while starting).
type afterReply struct {
	result any
	then   func()
}

// conn is a JSON-RPC 2.0 peer over Content-Length frames. Requests from the
// client run concurrently, each with its own context that $/cancelRequest
// cancels; calls to the client may be made from any goroutine, including a
// request handler, because responses are routed by the read loop.
type conn struct {
	in  *frameReader
	log *slog.Logger

	writeMu sync.Mutex // guards out
	out     io.Writer

	seq       atomic.Int32
	pendingMu sync.Mutex // guards pending
	pending   map[jsonrpc2.ID]chan *jsonrpc2.Response

	inflightMu sync.Mutex // guards inflight
	inflight   map[jsonrpc2.ID]context.CancelFunc

	handlers sync.WaitGroup // request goroutines
	done     chan struct{}  // closed when the read loop has ended
}

func newConn(r io.Reader, w io.Writer, log *slog.Logger) *conn {
	return &conn{
		in:       newFrameReader(r),
		out:      w,
		log:      log,
		pending:  make(map[jsonrpc2.ID]chan *jsonrpc2.Response),
		inflight: make(map[jsonrpc2.ID]context.CancelFunc),
		done:     make(chan struct{}),
	}
}

// run reads and dispatches until the stream ends, ctx ends or a handler
// returns errStop. It cancels and waits for every request goroutine it
// started before returning. A nil error means errStop; io.EOF means the
// client closed its end.
// frame is one read from the client: a message body or the error reading it.
type frame struct {
	body []byte
	err  error
}

func (c *conn) run(ctx context.Context, h handler) error {
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		close(c.done)
		c.handlers.Wait()
	}()
	// Frames are read on their own goroutine so that a cancelled ctx (a
	// signal) ends the loop even while a read blocks: closing a blocking
	// stdin pipe does not interrupt it. That reader stops at the next frame
	// or read error, or with the process.
	frames := make(chan frame)
	go func() {
		for {
			body, err := c.in.read()
			select {
			case frames <- frame{body, err}:
			case <-ctx.Done():
				return
			}
			var fe *frameError
			if err != nil && !errors.As(err, &fe) {
				return
			}
		}
	}()
	for {
		var f frame
		select {
		case f = <-frames:
		case <-ctx.Done():
			return ctx.Err()
		}
		body, err := f.body, f.err
		var fe *frameError
		if errors.As(err, &fe) {
			c.log.Warn("skipping malformed frame", "err", err)
			c.replyNullID(jsonrpc2.NewError(jsonrpc2.ParseError, err.Error()))
			continue
		}
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			c.log.Warn("skipping undecodable message", "err", err)
			c.replyNullID(jsonrpc2.NewError(jsonrpc2.ParseError, "cannot decode JSON-RPC message: "+err.Error()))
			continue
		}
		switch m := msg.(type) {
		case *jsonrpc2.Response:
			c.deliver(m)
		case *jsonrpc2.Notification:
			if m.Method() == "$/cancelRequest" {
				c.cancelInflight(m.Params())
				continue
			}
			if _, err := h.handle(ctx, m.Method(), m.Params(), false); err != nil {
				if errors.Is(err, errStop) {
					return nil
				}
				c.log.Warn("notification failed", "method", m.Method(), "err", err)
			}
		case *jsonrpc2.Call:
			if h.inline(m.Method()) {
				c.serveCall(ctx, h, m)
				continue
			}
			rctx, rcancel := context.WithCancel(ctx)
			c.inflightMu.Lock()
			c.inflight[m.ID()] = rcancel
			c.inflightMu.Unlock()
			c.handlers.Add(1)
			go func() {
				defer c.handlers.Done()
				defer func() {
					c.inflightMu.Lock()
					delete(c.inflight, m.ID())
					c.inflightMu.Unlock()
					rcancel()
				}()
				c.serveCall(rctx, h, m)
			}()
		}
	}
}

func (c *conn) serveCall(ctx context.Context, h handler, m *jsonrpc2.Call) {
	res, err := h.handle(ctx, m.Method(), m.Params(), true)
	var then func()
	if ar, ok := res.(afterReply); ok {
		res, then = ar.result, ar.then
	}
	if err := c.reply(m.ID(), res, err, ctx); err != nil {
		c.log.Warn("cannot send response", "method", m.Method(), "err", err)
	}
	if then != nil {
		then()
	}
}

// cancelInflight serves $/cancelRequest; ids may be numbers or strings.
func (c *conn) cancelInflight(params json.RawMessage) {
	var p struct {
		ID jsonrpc2.ID `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		c.log.Warn("bad $/cancelRequest", "err", err)
		return
	}
	c.inflightMu.Lock()
	cancel := c.inflight[p.ID]
	c.inflightMu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (c *conn) deliver(r *jsonrpc2.Response) {
	c.pendingMu.Lock()
	ch := c.pending[r.ID()]
	delete(c.pending, r.ID())
	c.pendingMu.Unlock()
	if ch == nil {
		c.log.Warn("response to an unknown request", "id", fmt.Sprint(r.ID()))
		return
	}
	ch <- r
}

// toRPCError gives every error a JSON-RPC code; jsonrpc2 would send a bare
// error as code 0.
func toRPCError(ctx context.Context, err error) *jsonrpc2.Error {
	var re *jsonrpc2.Error
	if errors.As(err, &re) {
		return re
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return jsonrpc2.NewError(codeRequestCancelled, "request cancelled")
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
}

func (c *conn) reply(id jsonrpc2.ID, result any, err error, ctx context.Context) error {
	var rerr error
	if err != nil {
		rerr = toRPCError(ctx, err)
		result = nil
	}
	raw, merr := marshalParams(result)
	if merr != nil {
		rerr, raw = jsonrpc2.NewError(jsonrpc2.InternalError, merr.Error()), json.RawMessage("null")
	}
	resp, merr := jsonrpc2.NewResponse(id, raw, rerr)
	if merr != nil {
		return merr
	}
	return c.write(resp)
}

// replyNullID answers a message whose id could not be read.
func (c *conn) replyNullID(e *jsonrpc2.Error) {
	body, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      *int            `json:"id"`
		Error   *jsonrpc2.Error `json:"error"`
	}{"2.0", nil, e})
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if err := writeFrame(c.out, body); err != nil {
		c.log.Warn("cannot send error", "err", err)
	}
}

// marshalParams encodes with encoding/json so our types' tags and
// MarshalJSON methods decide the wire form, whatever jsonrpc2 uses inside.
func marshalParams(v any) (json.RawMessage, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(v)
}

func (c *conn) write(msg jsonrpc2.Message) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("lsp: encoding message: %w", err)
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	return writeFrame(c.out, body)
}

// notify sends a notification to the client.
func (c *conn) notify(method string, params any) error {
	raw, err := marshalParams(params)
	if err != nil {
		return fmt.Errorf("lsp: encoding %s: %w", method, err)
	}
	n, err := jsonrpc2.NewNotification(method, raw)
	if err != nil {
		return err
	}
	return c.write(n)
}

// call sends a request to the client and waits for its answer. An error
// answer comes back as *jsonrpc2.Error. When ctx ends first the client is
// told with $/cancelRequest.
func (c *conn) call(ctx context.Context, method string, params, result any) error {
	raw, err := marshalParams(params)
	if err != nil {
		return fmt.Errorf("lsp: encoding %s: %w", method, err)
	}
	id := jsonrpc2.NewNumberID(c.seq.Add(1))
	call, err := jsonrpc2.NewCall(id, method, raw)
	if err != nil {
		return err
	}
	ch := make(chan *jsonrpc2.Response, 1)
	c.pendingMu.Lock()
	c.pending[id] = ch
	c.pendingMu.Unlock()
	defer func() {
		c.pendingMu.Lock()
		delete(c.pending, id)
		c.pendingMu.Unlock()
	}()
	if err := c.write(call); err != nil {
		return fmt.Errorf("lsp: sending %s: %w", method, err)
	}
	select {
	case resp := <-ch:
		if err := resp.Err(); err != nil {
			return err
		}
		if result == nil || len(resp.Result()) == 0 {
			return nil
		}
		if err := json.Unmarshal(resp.Result(), result); err != nil {
			return fmt.Errorf("lsp: decoding the %s answer: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		_ = c.notify("$/cancelRequest", map[string]any{"id": &id})
		return ctx.Err()
	case <-c.done:
		return errConnClosed
	}
}
