// Package jsonrpc is tandem's one JSON-RPC 2.0 peer: the ACP front door, the
// LSP front door and (later) plugins all speak through a Conn.
//
// A Conn reads frames from an io.Reader and writes frames to an io.Writer in
// one of two framings: NewlineDelimited (one message per line, as ACP does)
// or ContentLength (LSP's "Content-Length: N" headers). Both sides of the
// connection are equal: incoming requests and notifications go to a Handler,
// and Call and Notify send requests and notifications to the peer from any
// goroutine, including from inside a handler. Responses are routed to the
// waiting Call by the read loop.
//
// What a Conn guarantees:
//
//   - Every frame is parsed into a typed message before anything looks at
//     it. Request ids are kept as the raw JSON the peer sent and echoed byte
//     for byte: string ids with their escapes (and "" too), numbers of any
//     size. A request whose id is null is still a request (the spec
//     discourages it but allows it) and is answered with id null. Invalid
//     requests get -32600 (with their id when it can be read,
//     else null), malformed JSON -32700 with a null id, unknown methods
//     -32601, and a handler that panics -32603; none of them ends the
//     connection. Whether params fit a method is the handler's call
//     (Typed answers -32602).
//   - A ContentLength header block that cannot be used (a line without a
//     colon, a Content-Length that is not a length, none at all, a line
//     over the buffer) is answered -32700 with a null id and skipped; the
//     reader resumes at the end of that block or at the next line starting
//     "Content-Length:", whichever comes first. Blank lines between frames
//     are skipped silently. Only input that ends inside a frame ends the
//     connection (ErrFraming).
//   - Batches (JSON arrays) are refused with one -32600 error: neither ACP
//     nor LSP sends them, and answering them would need response grouping
//     that no peer of tandem would exercise.
//   - One goroutine writes, one frame per Write call, so frames never
//     interleave. The outbox between senders and that writer is bounded:
//     when the peer reads slowly, senders block (each with its context)
//     instead of queueing without limit.
//   - Frames over the outbound cap are never sent: Call and Notify return
//     an error wrapping ErrTooLarge, and a response that is too large is
//     replaced by an error response, so the peer is not left waiting.
//     Frames over the inbound cap are dropped and answered with an error
//     that names the limit; the connection stays up.
//   - Cancellation: when Options.Cancel names the peer's cancel
//     notification ($/cancel_request for ACP, $/cancelRequest for LSP), the
//     context of the handler running the named request is cancelled. A Call
//     whose context ends stops waiting and, with Cancel.Notify, tells the
//     peer.
//   - Serve returns only after every goroutine it started has stopped (one
//     exception, documented on Serve: a read that closing the input cannot
//     interrupt). When the peer closes its input, requests already received
//     are still answered first (bounded by Options.DrainTimeout, after
//     which their contexts are cancelled). A handler must return once its
//     context ends.
//   - Limits are per connection: the outbox (Options.Outbox frames), the
//     handlers running at once (Options.MaxInFlight; more are refused with
//     -32603, never queued), and one message's size each way.
//
// Handlers run each in their own goroutine, except the methods
// Options.Inline selects: those run on the read loop, in arrival order, and
// must therefore never Call the peer (the response could not be read).
// AfterResponse lets a handler run code once its response is on the wire.
//
// The package must never know a protocol's methods or types (those belong
// to acp, lsp and plugin code), never log message contents (they carry user
// files), and never write anything but whole frames to its writer.
package jsonrpc
