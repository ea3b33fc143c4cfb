package agent

import (
	"context"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/agent/turn"
)

// turnRun is the session's side of package turn: the methods below are
// turn.Session, each a thin door to the session-specific step (the
// instructions, compaction, usage, seams, the update stream).
var _ turn.Session = (*turnRun)(nil)

// config is what package turn runs this turn with.
func (t *turnRun) config() turn.Config {
	return turn.Config{Provider: t.s.a.cfg.Provider, MaxRequests: t.s.a.cfg.MaxTurnRequests, Compact: t.sub == nil}
}

func (t *turnRun) History() []llm.Message { return t.history }

func (t *turnRun) Append(m llm.Message) { t.appendHistory(m) }

// Settings is the snapshot the next request is built from: the model,
// effort, system prompt and the mode's tools, shaped for a child.
func (t *turnRun) Settings() turn.Settings {
	s := t.s
	// The settings come with the turn's view, not through the actor: a
	// request per tool step made that round trip a good share of the
	// step's wall time.
	v := t.refreshView()
	mode, model, effort := v.mode, v.model, v.effort
	if t.model != "" {
		model = t.model
	}
	if effort == "" {
		effort = s.a.cfg.Effort
	}
	set := turn.Settings{
		Model:    v.defs.modeModel(mode, model),
		Effort:   effort,
		System:   s.systemPrompt(),
		CacheKey: s.id,
		Mode:     string(mode),
		Tools:    v.catalog,
	}
	t.sub.shape(&set)
	// Never more output than the provider's listing says the model writes.
	set.MaxTokens = s.a.cfg.Windows.MaxOutput(set.Model, s.a.cfg.MaxTokens)
	// A call is judged by the definitions of its step's view (NextGroup)
	// and the mode its request offered tools for.
	set.Exposes = func(g tools.Group) bool { return t.view().defs.modes.exposes(mode, g) }
	return set
}

// baseRequest is the next request without its history.
func (t *turnRun) baseRequest() *llm.Request { return turn.Request(t.Settings()) }

func (t *turnRun) Chunk(id, text string, thought bool) {
	typ := AgentMessageChunk
	if thought {
		typ = AgentThoughtChunk
	}
	t.emitChunk(Update{Type: typ, Chunk: &ContentBlock{Type: "text", Text: text}, MessageID: id})
}

func (t *turnRun) Estimate(m models.Measure) int { return t.s.a.est.EstimateMeasure(m) }

func (t *turnRun) Measure(req *llm.Request) models.Measure {
	if t.sizes == nil {
		t.sizes = &models.Sizer{}
	}
	return t.sizes.Measure(req)
}

func (t *turnRun) CompactIfFull(model string, estimate int) (bool, error) {
	return t.compactIfFull(model, estimate)
}

func (t *turnRun) CompactOverflow(refusal error) error {
	t.s.a.log.Info("the provider refused the request as too long; compacting", "session", t.s.id, "err", refusal)
	_, err := t.compact(compactOverflow, "")
	return err
}

func (t *turnRun) Refused(err error, sent turn.Sent) {
	t.sent = sentRequest{model: sent.Model, estimate: sent.Estimate}
	t.learnLimit(err)
}

func (t *turnRun) Overflow(err error) error { return overflowError(err) }

func (t *turnRun) BeforeRequest(ctx context.Context, req *llm.Request, estimate int) (bool, error) {
	s := t.s
	ev := RequestEvent{SessionID: s.id, Request: req, Window: s.a.window(req.Model), Estimate: estimate}
	if err := s.a.cfg.Pipeline.beforeRequest(ctx, ev); err != nil {
		return false, err
	}
	return len(s.a.cfg.Pipeline.BeforeRequest) > 0, nil
}

func (t *turnRun) AfterResponse(ctx context.Context, req *llm.Request, m models.Measure, estimate int, resp *llm.Response) {
	t.accountUsage(ctx, req, m, estimate, resp)
	t.s.a.cfg.Pipeline.afterResponse(ctx, ResponseEvent{SessionID: t.s.id, Response: resp})
}

// BeforeStop is the stop seam; a child has none.
func (t *turnRun) BeforeStop(ctx context.Context, continued int) string {
	if t.sub != nil {
		return ""
	}
	return t.s.a.cfg.Pipeline.beforeStop(ctx, StopEvent{SessionID: t.s.id, Continued: continued})
}

// Reached is the instructions the calls reached; a child tracks none.
func (t *turnRun) Reached(touched []string) string {
	if t.sub != nil {
		return ""
	}
	return t.instructionsAfterTools(touched)
}

func (t *turnRun) Steer() []llm.Part { return t.steer() }

// newMessageID names one message for messageId (turn.MessageID).
func newMessageID() string { return turn.MessageID() }
