package agent

import (
	"errors"
	"fmt"
	"slices"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/agent/store"
)

// Effort returns the session's thought level: its own choice, else the
// agent's default. Reasoning reports whether the current model takes one.
func (s *Session) Effort() (e llm.Effort, reasoning bool) {
	s.read(func() { e, reasoning = s.st.effort, models.Reasons(s.st.model) })
	if e == "" {
		e = s.a.cfg.Effort
	}
	return e, reasoning
}

// ErrUnknownEffort is returned for a thought level that is not one of
// llm.Efforts.
var ErrUnknownEffort = errors.New("unknown thought level")

// SetEffort sets the thought level for the next request; it is kept with
// the session. Errors match ErrUnknownEffort.
func (s *Session) SetEffort(e llm.Effort) error {
	if !slices.Contains(llm.Efforts(), e) {
		return fmt.Errorf("%w %q: use off, low, medium or high", ErrUnknownEffort, e)
	}
	var meta *store.Meta
	err := s.change(func() {
		s.st.effort = e
		s.publishChoice()
		meta = s.meta()
	})
	if err == nil {
		s.saveMeta(meta)
	}
	return err
}

// modelChoice is the session's own model and thought level, as the
// actor last published them.
type modelChoice struct {
	model  string
	effort llm.Effort // "" until chosen: the agent's default applies
}

// publishChoice stores st's model and effort in their mirror; on the
// actor, or before it runs.
func (s *Session) publishChoice() {
	s.choice.Store(&modelChoice{model: s.st.model, effort: s.st.effort})
}
