package agent

import (
	"strings"

	"github.com/tandemhq/tandem/agent/instructions"
)

// withRootBaselines adds the additional roots' instruction chains to the
// primary root's baseline b, in the same message and after it, one root
// after another in the order the editor gave them. Each root's chain is
// found as the primary's is (from its project root down to it); the
// user-global file is the primary's alone, so it is not repeated. The
// roots' files are not tracked for later changes: they reach the model
// again with the next complete baseline (after a compaction). A nil b
// with something to add becomes a baseline of its own, so the primary
// tracker marks the baseline as sent and it is not added twice.
func (t *turnRun) withRootBaselines(b *instructions.Batch) *instructions.Batch {
	s := t.s
	cfg := s.a.instructionsConfig()
	cfg.Home = "" // the user-global file belongs to the primary chain only
	var parts []string
	for _, root := range s.roots {
		rb, err := instructions.NewTracker(cfg, root).Baseline(t.ctx)
		if err != nil {
			s.a.log.Warn("workspace instructions of an additional root", "session", s.id, "root", root, "err", err)
			continue
		}
		if rb == nil || rb.Text == "" {
			continue
		}
		parts = append(parts, "Instructions for the additional workspace root "+root+
			" (the paths named below are relative to it; they apply to files under it):\n"+rb.Text)
	}
	if len(parts) == 0 {
		return b
	}
	if b == nil {
		b = &instructions.Batch{Meta: instructions.Meta{Version: instructions.MetaVersion, Baseline: true, Changes: []instructions.Change{}}}
	}
	if b.Text != "" {
		parts = append([]string{b.Text}, parts...)
	}
	b.Text = strings.Join(parts, "\n\n")
	b.Meta.Bytes = len(b.Text)
	return b
}
