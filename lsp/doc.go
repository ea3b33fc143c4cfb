// Package lsp is tandem's LSP front door: `tandem lsp` serves agent sessions
// to any LSP client over stdio. Clients drive sessions with tandem/* requests,
// receive updates as tandem/update notifications, and get the agent's edits
// as workspace/applyEdit so the editor applies them to its own buffers.
//
// The package translates between LSP and package agent and implements
// agent.Host once per session. It must never hold agent logic (prompts,
// policy, tools), never write to stdout except through the connection, and
// never write a file the editor could have edited itself.
//
// The JSON-RPC dispatcher (conn.go, frame.go) is our own, built on
// go.lsp.dev/jsonrpc2 v0.10.0's message types (DecodeMessage, Call,
// Response, ID, Error): that version's Conn closes the connection on a
// malformed frame or a handler error, its Handlers chain serializes every
// request, and a handler that calls the client deadlocks, none of which a
// long-running prompt can live with. Here requests run concurrently,
// notifications in arrival order on the read loop, and calls to the client
// are answered through the read loop from any goroutine.
//
// Files: one per method group (lifecycle, sync, sessions, prompt,
// symbols, codeaction, instructions, workspacesymbol); the Host side in
// session, applyedit, permission and progress; what is left out in
// unimplemented.go.
package lsp
