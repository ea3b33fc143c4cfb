package agent

import (
	"context"
	"encoding/json"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/models"
)

// recUsage is a session log record: one model request's token counts.
const recUsage = "usage"

// usageRecordVersion is the shape of a recUsage record; a record of another
// version is skipped on load.
const usageRecordVersion = 1

// usageRecord is what the log keeps of one model request.
type usageRecord struct {
	V        int       `json:"v"`
	Model    string    `json:"model"`
	Usage    llm.Usage `json:"usage"`
	Estimate int       `json:"estimate,omitempty"` // tandem's guess at the input before sending
}

// ContextUsage is a usage_update: how full the context is and what the
// session has cost so far.
type ContextUsage struct {
	Used int   // tokens in the context after the latest response
	Size int   // the model's context window
	Cost *Cost // the session's cumulative cost; nil when a model's price is unknown
}

// Cost is an amount of money.
type Cost struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// UsageTotals are the token counts of a turn or a session, and their cost.
type UsageTotals struct {
	llm.Usage
	Requests int
	Cost     float64
	Priced   bool // every request's model had a known price, so Cost is complete
}

func (t *UsageTotals) add(model string, u llm.Usage) {
	if t.Requests == 0 {
		t.Priced = true
	}
	t.Requests++
	t.Usage = t.Usage.Add(u)
	if p, ok := models.PriceOf(model); ok {
		t.Cost += p.Cost(u)
	} else {
		t.Priced = false
	}
}

// PromptTokens counts every input token, cached or not.
func (t UsageTotals) PromptTokens() int { return models.Reported(t.Usage) }

// CacheHitRate is the share of input tokens read from the provider's cache.
func (t UsageTotals) CacheHitRate() float64 {
	in := t.PromptTokens()
	if in == 0 {
		return 0
	}
	return float64(t.CacheReadTokens) / float64(in)
}

// usageState is the session's record of what it spent; it is actor
// state (actorState.usage) like the rest, changed and read on the actor.
type usageState struct {
	session UsageTotals
	turn    UsageTotals // the running or last turn
}

// add counts one request of model in the turn and the session and
// returns the session's new totals.
func (u *usageState) add(model string, use llm.Usage) UsageTotals {
	u.turn.add(model, use)
	u.session.add(model, use)
	return u.session
}

// Usage returns the token counts and cost of the session's latest turn
// and of the whole session (since it was created, across loads).
func (s *Session) Usage() (turn, session UsageTotals) {
	s.read(func() { turn, session = s.st.usage.turn, s.st.usage.session })
	return turn, session
}

// window returns the context window of model.
func (a *Agent) window(model string) int { return a.cfg.Windows.Window(model) }

// accountUsage is the built-in after-response step: it records the
// request's usage and tells the editor how full the context is. The
// update carries the session's cost, which the actor adds up: the actor
// queues it once it has counted the request.
func (t *turnRun) accountUsage(ctx context.Context, req *llm.Request, m models.Measure, estimate int, resp *llm.Response) {
	s, u := t.s, resp.Usage
	cu := ContextUsage{Used: models.Reported(u) + u.OutputTokens, Size: s.a.window(req.Model)}
	t.recordUsage(ctx, req, m, estimate, resp, func(total UsageTotals) {
		if t.sub != nil { // a child's context is not the one the editor shows
			return
		}
		if total.Priced {
			cu.Cost = &Cost{Amount: total.Cost, Currency: "USD"}
		}
		s.emit(Update{Type: UsageUpdated, Usage: &cu})
	})
}

// recordUsage calibrates the estimator, logs the request's usage and adds
// it to the session's totals, then runs counted (if any) with them on the
// actor. Side requests (a compaction's summaries) use it alone: they cost
// tokens but say nothing about how full the conversation is. m is req's
// measure, estimate the tokens it was expected to cost.
//
// The request was paid for even when the turn is being cancelled, so the
// count goes to the actor without the turn's context. The turn does not
// wait for it: a round trip per model response would put the turn's
// thread to sleep and wake it again, a millisecond or more on a loaded
// machine. The actor serves its inbox in order, so the turn's end (and
// any later reader) sees every count.
func (t *turnRun) recordUsage(_ context.Context, req *llm.Request, m models.Measure, estimate int, resp *llm.Response, counted func(UsageTotals)) {
	s, u := t.s, resp.Usage
	s.a.est.ObserveMeasure(m, models.Reported(u))
	t.record(recUsage, usageRecord{V: usageRecordVersion, Model: req.Model, Usage: u, Estimate: estimate})
	s.post(func() {
		total := s.st.usage.add(req.Model, u)
		if counted != nil {
			counted(total)
		}
	})
}

// restoreUsage adds a logged request to a loaded session's totals.
func (s *Session) restoreUsage(data json.RawMessage) {
	var r usageRecord
	if err := json.Unmarshal(data, &r); err != nil || r.V != usageRecordVersion {
		s.a.log.Warn("session log: usage record skipped", "session", s.id, "version", r.V, "err", err)
		return
	}
	s.st.usage.session.add(r.Model, r.Usage) // loading: the session is not shared yet
}
