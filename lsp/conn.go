package lsp

import (
	"context"
	"fmt"
	"io"

	"github.com/tandemhq/tandem/internal/jsonrpc"
)

// Error codes LSP adds to JSON-RPC's.
const (
	codeServerNotInitialized int64 = -32002
	codeRequestFailed        int64 = -32803 // valid, but could not be served
)

// maxMessage caps one message each way. It is above the jsonrpc default
// because editors send whole buffers (didOpen) and tandem sends whole-file
// edits; a larger message is refused with an error, the connection stays.
const maxMessage = 64 << 20

// rpcError is an error answer with an LSP or JSON-RPC code.
func rpcError(code int64, msg string) error { return &jsonrpc.Error{Code: code, Message: msg} }

// conn is the server's side of the JSON-RPC connection: a jsonrpc.Conn
// speaking LSP's framing and $/cancelRequest, plus the connection's
// lifetime for sends that have no request context of their own.
type conn struct {
	rpc  *jsonrpc.Conn
	life context.Context // ends when the connection does
}

func newConn(s *Server, in io.Reader, out io.Writer, life context.Context) *conn {
	maxOut := s.maxOut
	if maxOut <= 0 {
		maxOut = maxMessage
	}
	rpc := jsonrpc.NewConn(in, out, jsonrpc.Options{
		Framing: jsonrpc.ContentLength,
		Handler: s.serve,
		Cancel:  jsonrpc.Cancel{Method: "$/cancelRequest", Field: "id", Notify: true},
		Inline:  s.inline,
		// Nobody will read what a running prompt produces any more.
		PeerClosed:  s.cancelPrompts,
		MaxInbound:  maxMessage,
		MaxOutbound: maxOut,
		Log:         s.log,
	})
	return &conn{rpc: rpc, life: life}
}

// notify sends a notification. It goes through the connection's bounded
// outbox, so it waits while the client is slow to read; callers on one
// goroutine (a session's updates) keep their order on the wire.
func (c *conn) notify(method string, params any) error {
	if err := c.rpc.Notify(c.life, method, params); err != nil {
		return fmt.Errorf("lsp: %w", err)
	}
	return nil
}

// call sends a request to the client and waits for its answer; an error
// answer comes back as *jsonrpc.Error. When ctx ends first the client is
// told with $/cancelRequest.
func (c *conn) call(ctx context.Context, method string, params, result any) error {
	return c.rpc.Call(ctx, method, params, result)
}
