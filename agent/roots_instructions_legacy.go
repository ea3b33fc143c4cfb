package agent

import (
	"context"
	"strings"

	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/llm"
)

// legacyRootHeader is how tandem before per-root trackers introduced an
// additional root's baseline inside the primary root's baseline message.
// That code recorded no metadata for the root's files (its Meta carried the
// primary's changes alone, and no Meta.Root), so a path prefix cannot
// attribute anything to the root; the message text the model still sees is
// the only evidence of what it was shown.
func legacyRootHeader(root string) string {
	return "Instructions for the additional workspace root " + root +
		" (the paths named below are relative to it; they apply to files under it):\n"
}

// rootBaseline is an additional root's baseline. When the history already
// holds exactly this text under the old header (a session saved by older
// code, loaded now), the model has it: the batch keeps its metadata, which
// is recorded with the root so the next load restores the tracker, and
// loses its text, so it is not shown twice. Any difference (a file changed
// while tandem was away, a compaction that dropped the message) sends it
// again, whole.
func (t *turnRun) rootBaseline(ctx context.Context, rt rootInstr) (*instructions.Batch, error) {
	b, err := rt.tr.Baseline(ctx)
	if err != nil || b == nil || b.Text == "" {
		return b, err
	}
	if historyHas(t.history, legacyRootHeader(rt.root)+b.Text) {
		b.Text = ""
	}
	return b, nil
}

// historyHas reports whether a user message of history contains text.
func historyHas(history []llm.Message, text string) bool {
	for _, m := range history {
		if m.Role != llm.RoleUser {
			continue
		}
		for _, p := range m.Content {
			if p.Type == llm.PartText && strings.Contains(p.Text, text) {
				return true
			}
		}
	}
	return false
}
