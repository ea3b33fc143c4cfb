package turn

import (
	"context"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/agent/tools"
)

// Session is what a turn needs from the session running it. Each part is
// small and named for its stage; package agent's turn implements them all.
type Session interface {
	Conversation
	View
	Emitter
	Compactor
	Seams
	Calls
}

// Conversation is the history the turn extends.
type Conversation interface {
	// History is the model history as it is now (a compaction may have
	// replaced it since the last call).
	History() []llm.Message
	// Append adds m to the history and the session's log.
	Append(m llm.Message)
}

// Settings is one snapshot of what a request is built from. The session
// takes it once per request; the response's tool calls are checked
// against the same snapshot.
type Settings struct {
	Model, System string
	Effort        llm.Effort
	CacheKey      string
	MaxTokens     int
	// Mode names the session's mode, for a refusal of a tool it hides.
	Mode string
	// Tools are the tools the turn may know of, in the order offered.
	Tools []tools.Tool
	// Exposes says whether the mode offers tools of group g.
	Exposes func(g tools.Group) bool
}

// View gives the settings' snapshot.
type View interface {
	Settings() Settings
}

// Emitter publishes what the editor sees of the stream.
type Emitter interface {
	// Chunk publishes a piece of the reply (or of its reasoning, thought)
	// of the message named id.
	Chunk(id, text string, thought bool)
}

// Sent is the latest request sent: its model and estimated size.
type Sent struct {
	Model    string
	Estimate int
}

// Compactor keeps the history within the model's window.
type Compactor interface {
	// Measure is models.MeasureOf(req), remembering what the history
	// measured between requests so a long session's stays cheap.
	Measure(req *llm.Request) models.Measure
	// Estimate is the tokens a request of measure m costs.
	Estimate(m models.Measure) int
	// CompactIfFull compacts when a request of estimate tokens to model
	// would pass the threshold, and says whether it tried.
	CompactIfFull(model string, estimate int) (tried bool, err error)
	// CompactOverflow compacts after the provider refused the request as
	// too long (refusal).
	CompactOverflow(refusal error) error
	// Refused learns from the provider's refusal of sent as too long.
	Refused(err error, sent Sent)
	// Overflow is the error a turn ends with when the provider refuses
	// the history even after a compaction.
	Overflow(err error) error
}

// Seams are the session's pipeline seams and steps around the loop.
type Seams interface {
	// BeforeRequest runs the before-request seam on req (estimate tokens)
	// and says whether a contributor may have changed it.
	BeforeRequest(ctx context.Context, req *llm.Request, estimate int) (changed bool, err error)
	// AfterResponse accounts for resp (req measured m, estimate tokens)
	// and runs the after-response seam.
	AfterResponse(ctx context.Context, req *llm.Request, m models.Measure, estimate int, resp *llm.Response)
	// BeforeStop is the stop seam: a reason to go on, or "".
	BeforeStop(ctx context.Context, continued int) string
	// Reached is the text of instructions the paths touched by the last
	// tool calls reached ("" when nothing changed).
	Reached(touched []string) string
	// Steer is the prompts queued meanwhile, for the model to see now.
	Steer() []llm.Part
}
