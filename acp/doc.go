// Package acp is tandem's Agent Client Protocol front door: it serves ACP
// over a byte stream (stdio in `tandem acp`) for Zed, Neovim, Emacs and
// JetBrains. The connection is internal/jsonrpc's (newline-delimited
// framing, $/cancel_request); the protocol types are those of
// github.com/coder/acp-go-sdk, whose own connection is not used.
//
// Every method is a thin handler (see the table in methods.go) that
// translates protocol types and calls package agent; each session gets a
// host that implements agent.Host over the client connection (fs/*,
// terminal/*, session/request_permission) and a bounded FIFO that carries
// agent.Update values as session/update notifications.
//
// The package must never hold agent logic (turns, tools, permission policy,
// slash commands, persistence live in agent), never look at raw protocol
// bytes (package jsonrpc parses them), and never write anything but protocol
// messages to its output: logs go to the slog.Logger it is given.
package acp
