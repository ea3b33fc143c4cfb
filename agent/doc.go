// Package agent is tandem's core: the session actor, the turn pipeline and
// its seams, the Update event model, modes and the permission policy. It
// knows nothing of editor protocols: a front door (acp, lsp, the CLI)
// implements Host for each session and calls the Session methods. It must
// never write to stdout, never decide anything by protocol, and never let
// a front door touch a session's state directly.
//
// # The session model
//
// A session is an actor. One goroutine (Session.run) owns all of its state:
// the mode, model, title, lifecycle and tool catalog (Session.st), and the
// session's parts, each a type with its own fields and a few methods: the
// history and its markers (historyLog), the permission rules and grants
// (permissions), the MCP connections (mcpServers), the code indexes
// (codeIndexes), and the commands, skills, modes, agent definitions and
// workspace instructions (customization). Everyone else — front doors,
// the running turn, MCP connections, the index builder — sends it a
// message (Session.do) and waits for the answer, so the actor stays free
// to answer State, Mode or SetMode while a turn runs.
//
// What every tool step reads (the mode, model, effort, switches,
// definitions, rules in force, built code indexes and tool list) the actor
// hands a turn as one value when it begins (turnView), and sends again, as
// a message on the turn's one-slot channel, whenever one of them changes
// while the turn runs; the turn takes the newest before each request,
// group of tool calls and permission decision. So a step makes no round
// trip to the actor for them, and no mirror of them is shared. The usage
// totals are plain actor state: a turn adds each response's tokens through
// the actor, and Session.Usage reads a copy through it.
//
// A turn runs on its own goroutine, started and awaited by the actor; its
// loop and stages are package turn, which reaches the session through
// interfaces turnRun implements (turn_session.go, toolrun.go). For
// the turn's duration it owns the history and the instructions tracker,
// which the actor hands it at the start and takes back at the end; for
// everything else it asks the actor. Cancel is the one call that never
// waits: it leaves a token the actor takes before its next message, and
// the actor never waits on a turn, so the turn's context ends at once.
//
// Updates leave through one FIFO per session (outbox): one goroutine at a
// time hands each one to Host.Send and passes it on to the log, which the
// FIFO's goroutine writes behind it, so the wire and the log see one order,
// whichever goroutine produced the update. The sender is the FIFO's own
// goroutine, or the running turn when it finds nobody handling the FIFO:
// the turn then sends its updates itself, so a tool step neither wakes
// another thread for them nor waits for the disk. A streamed reply's
// chunks are the exception: the goroutine sends them while the turn reads
// the next; chunks of one message that queue while the previous Send is
// in flight are joined into one update (the first never waits). The FIFO
// is the stream's one queue: front doors' Send writes each update to the
// connection without a queue of their own. A turn flushes the FIFO before Prompt returns. The actor only
// queues and never waits on the FIFO, because a Host.Send may be waiting
// on the actor.
//
// Agent.Close closes every open session, then the shared code indexes.
// Session.Close stops the turn, the actor, the index builder, the MCP
// servers and the FIFO, in that order, and returns once all are gone.
package agent
