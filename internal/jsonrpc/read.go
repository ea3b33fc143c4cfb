package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
)

// readLoop reads frames until the input ends, answering what is invalid
// itself, handing requests and notifications to dispatch and responses to
// the Calls waiting for them. It handles each frame inside gate (see
// readGate), and reads no further frame once serveCtx has ended (an inline
// exit handler that ends it is the last thing handled).
func (c *Conn) readLoop(ctx, serveCtx context.Context, gate *readGate) error {
	fr := newFrameReader(c.o.Framing, c.r, c.o.MaxInbound)
	for {
		raw, size, err := fr.next()
		if !gate.enter() {
			return errStopped
		}
		err = c.handleRead(ctx, raw, size, err)
		gate.leave()
		if err != nil {
			return err
		}
		if serveCtx.Err() != nil {
			return errStopped
		}
	}
}

// handleRead handles what one fr.next returned; the error it returns ends
// the read loop.
func (c *Conn) handleRead(ctx context.Context, raw []byte, size int, err error) error {
	if size > c.o.MaxInbound {
		c.refuseOversized(ctx, raw, size)
	} else if size > 0 {
		c.handleFrame(ctx, raw)
	}
	// headerReader returns it unwrapped; a type assertion keeps the
	// common path (err nil) free of allocations.
	if he, ok := err.(*headerError); ok {
		c.log.Warn("jsonrpc: skipping an unusable header block", "reason", he.reason)
		c.reply(ctx, nullID, nil, &Error{Code: CodeParseError, Message: "Parse error: " + he.reason})
		return nil
	}
	return err
}

func (c *Conn) handleFrame(ctx context.Context, raw []byte) {
	m, errID, perr := parse(raw)
	switch {
	case perr != nil:
		c.log.Warn("jsonrpc: refusing a message", "code", perr.Code, "reason", perr.Message, "bytes", len(raw))
		c.reply(ctx, errID, nil, perr)
	case m == nil:
	case m.isResponse():
		c.deliver(m)
	default:
		c.dispatch(ctx, m)
	}
}

// refuseOversized answers a frame over the inbound cap from what its head
// shows: a request gets an error with its id, a response fails the Call
// that waits for it, a notification is dropped (it has nobody to answer),
// and a frame whose kind cannot be told gets an error with a null id.
func (c *Conn) refuseOversized(ctx context.Context, head []byte, size int) {
	id, method := peekHeader(head)
	detail := fmt.Sprintf("message of %d bytes exceeds the %d-byte limit", size, c.o.MaxInbound)
	c.log.Warn("jsonrpc: oversized message dropped", "bytes", size, "method", method)
	switch {
	case method != "" && id.IsZero():
	case method == "" && !id.IsZero() && !id.IsNull():
		c.deliver(&message{id: id, err: &Error{Code: CodeInternalError, Message: "the peer's response is too large: " + detail}})
	default:
		if id.IsZero() {
			id = nullID
		}
		c.reply(ctx, id, nil, &Error{Code: CodeInvalidRequest, Message: "Invalid request: " + detail})
	}
}

// deliver hands a response to the Call waiting for it.
func (c *Conn) deliver(m *message) {
	c.pendingMu.Lock()
	ch, ok := c.pending[m.id.key()]
	delete(c.pending, m.id.key())
	c.pendingMu.Unlock()
	if !ok {
		if m.err != nil && m.id.IsNull() {
			c.log.Warn("jsonrpc: the peer reported an error about a message it could not read", "code", m.err.Code, "message", m.err.Message)
		} else {
			c.log.Debug("jsonrpc: response to no pending call", "id", m.id.String())
		}
		return
	}
	ch <- m // buffered: the Call may have stopped waiting
}

// reply sends a response. A result that does not encode, or encodes over
// the outbound cap, is replaced by an error response.
func (c *Conn) reply(ctx context.Context, id ID, result any, rerr *Error) error {
	body, err := encodeResponse(id, result, rerr)
	if err == nil && len(body) > c.o.MaxOutbound {
		err = fmt.Errorf("%w: %d bytes exceed the %d-byte limit", ErrTooLarge, len(body), c.o.MaxOutbound)
	}
	if err != nil {
		c.log.Error("jsonrpc: response not sent", "id", id.String(), "err", err)
		body, err = encodeResponse(id, nil, &Error{Code: CodeInternalError, Message: "the response could not be sent: " + err.Error()})
		if err != nil {
			return err
		}
	}
	return c.send(ctx, body, false)
}

// cancelRequest handles the peer's cancel notification.
func (c *Conn) cancelRequest(params json.RawMessage) {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return
	}
	id, ok := parseID(p[c.o.Cancel.Field])
	if !ok {
		return
	}
	c.inflightMu.Lock()
	f := c.inflight[id.key()]
	c.inflightMu.Unlock()
	if f != nil {
		f.cancelledByPeer.Store(true)
		f.cancel()
	}
}
