package agent

import (
	"strings"

	"github.com/tandemhq/tandem/agent/instructions"
)

// rootInstr tracks the workspace instructions of one additional root with
// a tracker of its own, found and kept up to date the way the primary
// root's are: its chain from its project root down to it at the baseline,
// then changed, new and removed files after the tools touch paths under
// it. Its metadata carries the root (instructions.Meta.Root), so a loaded
// session gives each tracker back its own records.
type rootInstr struct {
	root string
	tr   *instructions.Tracker
}

// rootTrackers returns a fresh tracker per additional root. The user-global
// file belongs to the primary chain alone, so it is not repeated.
func (a *Agent) rootTrackers(roots []string) []rootInstr {
	cfg := a.instructionsConfig()
	cfg.Home = ""
	out := make([]rootInstr, 0, len(roots))
	for _, r := range roots {
		out = append(out, rootInstr{root: r, tr: instructions.NewTracker(cfg, r)})
	}
	return out
}

// rootsInstructions runs op on every additional root's tracker, in the
// order the editor gave the roots, and returns the batches it produced,
// each marked with its root and framed as that root's. A root that fails
// is logged and skipped: instructions are guidance.
func (t *turnRun) rootsInstructions(op func(rootInstr) ([]*instructions.Batch, error)) []*instructions.Batch {
	var out []*instructions.Batch
	for _, rt := range t.instr.roots {
		bs, err := op(rt)
		if err != nil && t.ctx.Err() == nil {
			t.s.a.log.Warn("workspace instructions of an additional root", "session", t.s.id, "root", rt.root, "err", err)
		}
		for _, b := range bs {
			if b == nil {
				continue
			}
			b.Meta.Root = rt.root
			b.Text = framedForRoot(rt, b.Text)
			out = append(out, b)
		}
	}
	return out
}

// one adapts a tracker operation's result to rootsInstructions.
func one(b *instructions.Batch, err error) ([]*instructions.Batch, error) {
	return []*instructions.Batch{b}, err
}

// reminderOpen opens every instruction message (see package instructions);
// the compaction step recognises instruction messages by it.
const reminderOpen = "<system-reminder>\n"

// framedForRoot says, inside the reminder, which root the files belong to
// and what their paths are relative to, so the model neither applies them
// to the primary root nor misreads their paths.
func framedForRoot(rt rootInstr, text string) string {
	if text == "" {
		return ""
	}
	rel := "it"
	if base := rt.tr.Root(); base != "" && base != rt.root {
		rel = base // the root lies inside a repository whose top is above it
	}
	note := "These instruction files belong to the additional workspace root " + rt.root +
		" (their paths are relative to " + rel + "); they apply to files under that root only.\n"
	if rest, ok := strings.CutPrefix(text, reminderOpen); ok {
		return reminderOpen + note + rest
	}
	return note + text
}

// touchedIn keeps the paths whose session root is root, so each tracker
// reconciles only its own root (two roots in one repository must not load
// each other's nested files).
func (s *Session) touchedIn(root string, paths []string) []string {
	var out []string
	for _, p := range paths {
		if s.RootOf(p) == root {
			out = append(out, p)
		}
	}
	return out
}

// instructionsText records each batch's metadata and returns their texts
// as one message ("" when there is nothing to say), telling the actor what
// is loaded now when anything was recorded.
func (t *turnRun) instructionsText(bs []*instructions.Batch) string {
	var texts []string
	recorded := false
	for _, b := range bs {
		if b == nil {
			continue
		}
		t.s.record(recInstructions, b.Meta)
		recorded = true
		if b.Text != "" {
			texts = append(texts, b.Text)
		}
	}
	if recorded {
		t.publishInstructions()
	}
	return strings.Join(texts, "\n\n")
}
