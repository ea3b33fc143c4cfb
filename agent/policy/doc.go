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
// lists; today the only rules are the grants a session remembers from the
// user's "Always allow" and "Always reject" answers.
//
// The package never asks anyone, performs no I/O, and keeps no state of
// its own: the grants are a value the session owns.
package policy
