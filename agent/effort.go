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
		s.viewChanged()
		meta = s.meta()
	})
	if err == nil {
		s.saveMeta(meta)
	}
	return err
}
