// Package acp is tandem's Agent Client Protocol front door: it serves ACP
// over a byte stream (stdio in `tandem acp`) for Zed, Neovim, Emacs and
// JetBrains, on github.com/coder/acp-go-sdk.
//
// Every method is a thin handler that translates protocol types and calls
// package agent; each session gets a host that implements agent.Host over the
// client connection (fs/*, terminal/*, session/request_permission) and a
// FIFO that carries agent.Update values as session/update notifications.
//
// The package must never hold agent logic (turns, tools, permission policy,
// slash commands, persistence live in agent) and must never write anything
// but protocol messages to its output: logs go to the slog.Logger it is given.
package acp
