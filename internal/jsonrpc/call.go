package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
)

// Call sends a request and waits for its response, decoding the result
// into result (a pointer, or nil to discard it). An error response from
// the peer is returned as *Error. When ctx ends first, Call stops waiting,
// returns ctx's error and, with Options.Cancel.Notify, tells the peer.
// Call must not be used from a handler that runs inline.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	c.pendingMu.Lock()
	c.nextID++
	id := Int64ID(c.nextID)
	c.pendingMu.Unlock()
	body, err := encodeRequest(&id, method, params)
	if err != nil {
		return fmt.Errorf("jsonrpc: encoding %s params: %w", method, err)
	}
	ch := make(chan *message, 1)
	c.pendingMu.Lock()
	c.pending[id.key()] = ch
	c.pendingMu.Unlock()
	if err := c.send(ctx, body, false); err != nil {
		c.forget(id)
		return fmt.Errorf("jsonrpc: sending %s: %w", method, err)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("jsonrpc: %s: %w before the peer answered", method, ErrClosed)
		}
		if m.err != nil {
			return m.err
		}
		if result == nil {
			return nil
		}
		if err := json.Unmarshal(m.result, result); err != nil {
			return fmt.Errorf("jsonrpc: decoding the result of %s: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		c.notifyCancel(id)
		return ctx.Err()
	}
}

func (c *Conn) forget(id ID) {
	c.pendingMu.Lock()
	delete(c.pending, id.key())
	c.pendingMu.Unlock()
}

// notifyCancel tells the peer a Call was given up, when configured to.
func (c *Conn) notifyCancel(id ID) {
	if !c.o.Cancel.Notify || c.o.Cancel.Method == "" {
		return
	}
	params := map[string]ID{c.o.Cancel.Field: id}
	// The caller's ctx is over; the notice must not block on a peer that
	// stopped reading, so it is dropped when the outbox is full.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Notify(ctx, c.o.Cancel.Method, params); err != nil {
		c.log.Debug("jsonrpc: cancel notice not sent", "id", id.String(), "err", err)
	}
}

// Notify sends a notification, blocking while the outbox is full until ctx
// ends.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	body, err := encodeRequest(nil, method, params)
	if err != nil {
		return fmt.Errorf("jsonrpc: encoding %s params: %w", method, err)
	}
	if err := c.send(ctx, body, false); err != nil {
		return fmt.Errorf("jsonrpc: sending %s: %w", method, err)
	}
	return nil
}

// Methods is a method table: a Handler that looks the method up and
// answers -32601 for one it does not have (a notification nobody handles
// is dropped, as the spec wants no answer to it).
type Methods map[string]Handler

// Handle is the Handler of the table.
func (m Methods) Handle(ctx context.Context, req *Request) (any, error) {
	h, ok := m[req.Method]
	if !ok {
		return nil, MethodNotFound(req.Method)
	}
	return h(ctx, req)
}

// Typed adapts a function over typed params to a Handler: params are
// decoded into P (absent params leave it zero) and, when *P has a
// Validate() error method, validated; failures answer -32602.
func Typed[P, R any](fn func(context.Context, P) (R, error)) Handler {
	return func(ctx context.Context, req *Request) (any, error) {
		var p P
		if len(req.Params) > 0 {
			if err := json.Unmarshal(req.Params, &p); err != nil {
				return nil, InvalidParams("invalid params for %s: %v", req.Method, err)
			}
		}
		if v, ok := any(&p).(interface{ Validate() error }); ok {
			if err := v.Validate(); err != nil {
				return nil, InvalidParams("invalid params for %s: %v", req.Method, err)
			}
		}
		return fn(ctx, p)
	}
}
