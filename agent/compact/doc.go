// Package compact shortens a conversation history that no longer fits a
// model's context window, in two steps: old tool outputs are replaced by a
// one-line stub saying how to get them again, and if that is not enough the
// older turns are summarised by the model (in pieces when they do not fit
// one request) while the most recent turns stay verbatim.
//
// It works on llm messages alone and never does I/O of its own: the caller
// supplies the token counts and the one function that asks the model for a
// summary. It never separates a tool call from its result, and it never
// touches the system prompt or the tool list, so a provider's prefix cache
// keeps working for everything but the history. Re-injecting workspace
// instructions after a summary is the caller's job: parts the caller marks
// with Options.Reinjected are dropped here, so they come back exactly once.
//
// The package is named compact, not context, so that it can be imported
// beside the standard library's context without an alias everywhere.
package compact
