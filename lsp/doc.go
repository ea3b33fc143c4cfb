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
// The wire is internal/jsonrpc's Conn in Content-Length framing, with
// $/cancelRequest as its cancel notification: requests run concurrently,
// lifecycle requests and notifications in arrival order on the read loop,
// calls to the client work from any goroutine, and every message leaves
// through the Conn's bounded outbox, so a session's updates keep their
// order and a prompt's response follows its last update. conn.go holds
// the settings. The Conn reads stdin itself: it answers a malformed
// header with a parse error and goes on, and exit or a signal stops it
// even while a stdin read blocks.
//
// Usage: after every model request a session sends tandem/update whose
// update is ACP's usage_update ({"sessionUpdate":"usage_update","used":
// tokens in the context, "size": the model's window, "cost": {"amount",
// "currency":"USD"} cumulative for the session when the price is known}),
// and the tandem/prompt result carries "usage", the turn's tokens in ACP's
// Usage shape (inputTokens, outputTokens, totalTokens, cachedReadTokens,
// cachedWriteTokens, thoughtTokens) plus "cost" in dollars when known.
//
// Slash commands: a new or loaded session sends tandem/update with ACP's
// available_commands_update ({"availableCommands": [{"name", "description",
// "input": {"hint"}}]}) right after the response that names it, and again
// whenever the list changes (custom command or skill files edited, checked
// at each prompt). A prompt whose whole text is "/name args" runs one.
//
// Commands: workspace/executeCommand ids live under tandem.lsp. (ask,
// fix), because LSP client libraries register advertised ids as editor
// commands and must not collide with an extension's own tandem.* ones.
// An edit that asks is reviewed once: the permission prompt, or, for a
// client declaring experimental.tandem.previewEdits, its refactor preview
// (preview.go); an approved edit never carries needsConfirmation.
//
// Files: one per method group (lifecycle, sync, sessions, prompt,
// symbols, codeaction, instructions, workspacesymbol); the Host side in
// session, applyedit, permission, preview and progress; what is left out
// in unimplemented.go.
package lsp
