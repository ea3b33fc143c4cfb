package agent

import (
	"github.com/tandemhq/tandem/agent/llm"
)

// newRequest builds the next model request from the session's current
// mode, model and tool catalog. A child turn (see subagent) swaps in its
// own system prompt, model and tools; the history is always the turn's own.
func (t *turnRun) newRequest() *llm.Request {
	s := t.s
	var model string
	s.read(func() { t.mode, model, t.catalog = s.st.mode, s.st.model, s.st.catalog.List() })
	model = s.modeModel(t.mode, model)
	system := s.systemPrompt()
	if t.sub != nil {
		system = t.sub.system
		if t.sub.def.Model != "" {
			model = t.sub.def.Model
		}
		t.catalog = t.sub.offered(t.catalog)
	}
	return &llm.Request{
		Model:     model,
		System:    system,
		Messages:  t.history,
		Tools:     toolSpecs(s.defs.modes, t.mode, t.catalog),
		MaxTokens: s.a.cfg.MaxTokens,
	}
}

// emit publishes a turn's update: to the editor for the session's own
// turn, to the parent's tool call for a child's.
func (t *turnRun) emit(u Update) {
	if t.sub != nil {
		t.sub.sink(u)
		return
	}
	t.s.emit(u)
}

// emitLive publishes an update the log does not keep (a live terminal).
func (t *turnRun) emitLive(u Update) {
	if t.sub != nil {
		t.sub.sink(u)
		return
	}
	t.s.emitLive(u)
}

// logOnly logs an update without sending it; a child's updates are not
// logged on their own (its parent's tool call carries them).
func (t *turnRun) logOnly(u Update) {
	if t.sub == nil {
		t.s.logOnly(u)
	}
}

// callID is the id the editor knows a call by. A child's calls are
// prefixed with the parent's call id: the model numbers each conversation's
// calls on its own, and a permission prompt for a child's call must not
// collide with one of the parent's.
func (t *turnRun) callID(id string) string {
	if t.sub != nil {
		return t.sub.parentCall + "/" + id
	}
	return id
}
