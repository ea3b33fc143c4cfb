package agent

import (
	"context"
	"encoding/json"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/tools"
)

// Pipeline is where later features plug into the turn instead of patching
// it: compaction, usage accounting, permission rules, sandboxing, plugin
// hooks, checkpoints. A turn runs these steps, and at each seam it calls
// that seam's contributors in the order they appear in the slice:
//
//	TurnStart
//	  UserPrompt                                           a prompt for the model
//	  BeforeRequest → (model streams) → AfterResponse      once per request
//	  for each tool call:
//	    BeforeToolCall → (tool runs: BeforeAsk → ask → AfterAsk,
//	                      BeforeEdit → Host.ApplyEdit → AfterEdit) → AfterToolCall
//	  BeforeStop                                           no tool calls: end or go on
//	TurnEnd
//
// Every seam is empty by default. Seams that decide use reducer semantics:
// the first contributor that refuses ends the seam and later ones are not
// called; a contributor that rewrites passes its output to the next one.
// Contributors run on the turn's goroutine (read-only tool calls run in
// parallel, so BeforeToolCall, AfterToolCall and the edit seams may be
// called concurrently for different calls of one response) and block the
// turn while they run: keep them quick, and honour ctx. They must not keep
// or mutate what they are given beyond what their seam allows.
//
// The permission policy is the built-in user of two seams: its mode check
// is the first step of BeforeToolCall and its question to the user is the
// last step of BeforeAsk, so contributors there run after the mode check
// and before the user is asked.
//
// A contributor is a function appended to its seam in Config.Pipeline
// before agent.New; for example a hook that refuses one kind of command:
//
//	cfg.Pipeline.BeforeToolCall = append(cfg.Pipeline.BeforeToolCall,
//		func(ctx context.Context, e agent.ToolCallEvent) (json.RawMessage, error) {
//			if e.Tool.Name == "run_command" && bytes.Contains(e.Input, []byte("git push")) {
//				return nil, errors.New("pushing is left to the user")
//			}
//			return nil, nil // run it with the arguments unchanged
//		})
//
// BeforeRequest changes only what one request sends. Compaction, which
// shortens the history for good, is the turn's own step before the seam
// (session_compact.go): the seam sees the compacted request.
type Pipeline struct {
	// SessionOpen runs once a session has started (new, loaded or
	// resumed), before it takes a prompt; SessionClose once it has stopped.
	// Both run on the caller's goroutine and must be quick: slow work (a
	// plugin process starting) belongs on a goroutine the contributor owns.
	SessionOpen    []func(ctx context.Context, s *Session)
	SessionClose   []func(s *Session)
	TurnStart      []func(ctx context.Context, e TurnStartEvent)
	BeforeRequest  []BeforeRequestFunc
	AfterResponse  []func(ctx context.Context, e ResponseEvent)
	BeforeToolCall []BeforeToolCallFunc
	BeforeAsk      []BeforeAskFunc
	AfterAsk       []func(ctx context.Context, e AskEvent, err error)
	BeforeEdit     []BeforeEditFunc
	AfterEdit      []func(ctx context.Context, e EditEvent, r edits.Result, err error)
	AfterToolCall  []AfterToolCallFunc
	TurnEnd        []func(ctx context.Context, e TurnEndEvent)
	// TimelineRewind runs after the conversation was cut back to a
	// marker (timeline.go), off the actor.
	TimelineRewind []func(ctx context.Context, e TimelineRewindEvent)
	// Commands offers slash commands run by code outside the agent (a
	// plugin's), asked afresh whenever the session lists or runs commands.
	Commands []func(s *Session) []ExtCommand
	// UserPrompt runs when a prompt is about to go to the model (not for
	// slash commands), after TurnStart; BeforeStop when the model has
	// answered without calling a tool and the turn would end.
	UserPrompt []UserPromptFunc
	BeforeStop []BeforeStopFunc
}

// UserPromptFunc sees a prompt before the model does and returns text to
// add to it as context (empty: none). An error blocks the prompt: the model
// never sees it, the turn ends, and the user reads the error's text.
type UserPromptFunc func(ctx context.Context, e TurnStartEvent) (string, error)

// BeforeStopFunc runs when the turn would end; a non-empty result is a
// reason to go on, sent to the model as a user message for one more
// round. Continued counts the rounds already forced this turn, so a
// contributor can avoid looping forever (MaxTurnRequests bounds it too).
type BeforeStopFunc func(ctx context.Context, e StopEvent) string

// StopEvent is a turn about to end because the model stopped calling tools.
type StopEvent struct {
	SessionID string
	Continued int
}

// BeforeRequestFunc sees each model request before it is sent. It may
// replace e.Request's fields (for example Messages, to fit a context
// budget) but must not modify the messages it was given in place: they are
// the session's history. An error ends the turn with that error.
type BeforeRequestFunc func(ctx context.Context, e RequestEvent) error

// BeforeToolCallFunc sees a tool call before it runs and returns the
// arguments to run it with: a rewrite, or nil to keep e.Input. An error
// refuses the call: the tool does not run, and the model reads the error's
// text as the call's result; the turn goes on.
type BeforeToolCallFunc func(ctx context.Context, e ToolCallEvent) (json.RawMessage, error)

// BeforeAskFunc runs when a tool is about to ask for permission, before the
// policy asks the user. An error refuses the call without asking; the tool
// reports it to the model as a rejection. AskApprove answers yes for the
// user, but only where an allow rule could have (policy.Verdict.Approvable):
// a deny rule still refuses, and a protected path, an ask rule or a run
// outside the sandbox still asks.
type BeforeAskFunc func(ctx context.Context, e AskEvent) (AskAnswer, error)

// AskAnswer is a BeforeAsk contributor's say on a question.
type AskAnswer int

const (
	AskAsUsual AskAnswer = iota // the policy decides and may ask the user
	AskApprove                  // yes, where an allow rule could say it
)

// BeforeEditFunc runs before each edit reaches the editor, with the file's
// old content in e.Edit.Old; the edit waits for it. An error refuses the
// edit: the tool reports a rejection with the error's text as the reason.
type BeforeEditFunc func(ctx context.Context, e EditEvent) error

// AfterToolCallFunc sees a call's result and returns the result the model
// (and the editor) get: r unchanged, or a rewrite.
type AfterToolCallFunc func(ctx context.Context, e ToolCallEvent, r ToolResult) ToolResult

// TurnStartEvent is a prompt about to be handled.
type TurnStartEvent struct {
	SessionID string
	Prompt    []ContentBlock
}

// TurnEndEvent is how a turn ended.
type TurnEndEvent struct {
	SessionID  string
	StopReason StopReason
	Err        error
}

// RequestEvent is one model request about to be sent, with what a
// context budget needs: the model's window and the request's estimated
// input tokens (models.Estimator, calibrated by earlier responses).
type RequestEvent struct {
	SessionID string
	Request   *llm.Request
	Window    int
	Estimate  int
}

// ResponseEvent is one complete model response; Response.Usage carries
// what it cost.
type ResponseEvent struct {
	SessionID string
	Response  *llm.Response
}

// ToolCallEvent is one tool call the model made.
type ToolCallEvent struct {
	SessionID  string
	ToolCallID string
	Tool       tools.Info
	Input      json.RawMessage // the arguments, as rewritten so far
}

// AskEvent is a permission request a tool is about to make.
type AskEvent struct {
	SessionID string
	Call      ToolCall // as the editor would show it
	Tool      tools.Info
	Ask       tools.Ask
}

// EditEvent is one edit a tool hands to the editor.
type EditEvent struct {
	SessionID  string
	ToolCallID string
	Edit       edits.FileEdit
}

// ToolResult is what a tool call returns to the model.
type ToolResult struct {
	Output  string
	IsError bool
}
