// Package policy decides whether a tool call goes ahead, asks the user
// first, or is refused. It is the one place that decision is made: the
// agent consults it before every ask, and front doors only carry the
// question and the answer.
//
// A decision depends on the session's mode, the tool's group (the same
// group that decides which modes expose the tool), the call's target (the
// file an edit writes, the exact command line, the MCP tool) and the rules
// in force. Rules have the form Tool(specifier) — run_command(go test:*),
// edit_file(src/**), mcp__server__tool — and sit in allow, ask and deny
// lists; deny beats ask beats allow. ParseRule reads them as users write
// them, Claude Code's tool names included. They come from settings files
// (agent/settings) and from the session's own grants; each carries its
// source, which the reasons name.
//
// The package never asks anyone, performs no I/O, and keeps no state of
// its own: the grants are a value the session owns.
package policy
