// Package turn is one prompt's turn as a pipeline: the user message, then
// request → stream → tool calls → results → the next request, until the
// model stops. It holds the control flow and its stages; what a session
// supplies (its settings, history and log, compaction, seams, the updates
// the editor sees) comes through the small interfaces in session.go, which
// package agent implements for its turn.
//
// Read it in this order: Run here (the loop and why it stops), stream.go
// (one request: build, compact, stream, seal), tools.go (one response's
// tool calls: what runs concurrently, results in call order).
package turn

import (
	"context"

	"github.com/tandemhq/tandem/agent/llm"
)

// Stop is why a turn ended. The values are the wire's (ACP stop reasons).
type Stop string

const (
	EndTurn         Stop = "end_turn"
	MaxTokens       Stop = "max_tokens"
	MaxTurnRequests Stop = "max_turn_requests"
	Refusal         Stop = "refusal"
	Cancelled       Stop = "cancelled"
)

// Config is what stays fixed for one turn.
type Config struct {
	Provider llm.Provider
	// MaxRequests bounds the model requests of one turn.
	MaxRequests int
	// Compact lets the turn compact its history before a request that
	// would pass the threshold and after a provider's overflow refusal.
	// A child's context is its own and short-lived: it never compacts.
	Compact bool
}

// Outcome is how a turn ended; Last is the final response's message when
// the model stopped on its own (a subagent's report is taken from it).
type Outcome struct {
	Stop Stop
	Last llm.Message
}

// Run is the turn: it appends user to the history and converses until
// the model stops calling tools (and the stop seam asks for no more), the
// request limit is reached, or ctx ends (Cancelled, not an error).
func Run(ctx context.Context, c Config, s Session, user llm.Message) (Outcome, error) {
	r := &run{ctx: ctx, c: c, s: s}
	s.Append(user)
	continued := 0 // rounds the stop seam asked for
	for n := 0; n < c.MaxRequests; n++ {
		resp, err := r.request()
		if err != nil {
			if ctx.Err() != nil {
				return Outcome{Stop: Cancelled}, nil
			}
			return Outcome{}, err
		}
		calls := resp.ToolCalls()
		if len(calls) == 0 {
			why := ""
			if resp.StopReason == llm.StopEndTurn {
				why = s.BeforeStop(ctx, continued)
			}
			if why == "" || ctx.Err() != nil {
				return Outcome{Stop: stopOf(resp.StopReason), Last: resp.Message}, nil
			}
			continued++
			s.Append(llm.Message{Role: llm.RoleUser, Content: append([]llm.Part{{Type: llm.PartText, Text: why}}, s.Steer()...)})
			continue
		}
		results, touched := r.runTools(calls)
		if ctx.Err() == nil {
			// Instructions reached through these calls follow their results.
			if text := s.Reached(touched); text != "" {
				results = append(results, llm.Part{Type: llm.PartText, Text: text})
			}
			// Prompts queued meanwhile: the model sees them now, with
			// the results, never in the middle of a call.
			results = append(results, s.Steer()...)
		}
		s.Append(llm.Message{Role: llm.RoleUser, Content: results})
		if ctx.Err() != nil {
			return Outcome{Stop: Cancelled}, nil
		}
	}
	return Outcome{Stop: MaxTurnRequests}, nil
}

// run is one turn's state between its stages.
type run struct {
	ctx context.Context
	c   Config
	s   Session
	// set is the snapshot the latest request was built from: the tool
	// calls of its response are looked up in it.
	set Settings
	// sent is the latest request sent: what a refusal of it as too long
	// is about.
	sent Sent
}

func stopOf(r llm.StopReason) Stop {
	switch r {
	case llm.StopMaxTokens:
		return MaxTokens
	case llm.StopRefusal:
		return Refusal
	}
	return EndTurn
}
