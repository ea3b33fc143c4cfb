package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/store"
	"github.com/tandemhq/tandem/agent/tools"
)

// DefaultCompactAt is the share of the context window at which a session
// compacts its history before the next request.
const DefaultCompactAt = 0.8

// compactTitle is what the editor shows while a compaction runs.
const compactTitle = "Compacting conversation…"

// Why a compaction ran, as logged.
const (
	compactAuto     = "auto"     // the next request would pass compactAt
	compactOverflow = "overflow" // the provider refused the request as too long
	compactManual   = "manual"   // the user's /compact
)

func (a *Agent) compactAt() float64 {
	if a.cfg.CompactAt > 0 && a.cfg.CompactAt <= 1 {
		return a.cfg.CompactAt
	}
	return DefaultCompactAt
}

// compactIfFull compacts when a request of estimate tokens would pass the
// threshold of model's window, and says whether it tried (the history may
// have changed). Only a cancellation stops the request. A session whose
// auto-compact switch is off never does: the request goes as it is.
func (t *turnRun) compactIfFull(model string, estimate int) (bool, error) {
	if t.view().toggles.AutoCompactOff {
		return false, nil
	}
	if float64(estimate) <= t.s.a.compactAt()*float64(t.s.a.window(model)) {
		return false, nil
	}
	_, err := t.compact(compactAuto, "")
	if err != nil && t.ctx.Err() == nil {
		// The threshold leaves room below the window: the request goes as
		// it is and the provider decides. An overflow compacts again.
		t.s.a.log.Warn("automatic compaction failed; sending the request as it is", "session", t.s.id, "err", err)
		return true, nil
	}
	return true, err
}

// compact shortens the turn's history for good: the editor sees it run,
// the log gets one compaction record (the new model history and the
// instructions it carries, in one line, so a crash leaves either all of
// it or none), and the instructions are restored exactly once when a
// summary replaced the turns that carried them.
func (t *turnRun) compact(reason, focus string) (compact.Result, error) {
	s := t.s
	if s.a.cfg.Provider == nil {
		return compact.Result{}, ErrNotConfigured
	}
	id := "compact-" + store.NewID()
	s.emit(Update{Type: CompactionUpdated, Compaction: &Compaction{ID: id, Status: CompactionRunning}})
	// The log is written behind the wire: the start is in it before the
	// summary is asked for (seconds), so a crash meanwhile replays the
	// compaction interrupted rather than not at all.
	s.out.logged()
	r, err := t.compactHistory(reason, focus)
	if err != nil {
		c := &Compaction{ID: id, Status: CompactionFailed, Error: "Compaction failed: " + err.Error()}
		switch {
		case errors.Is(err, compact.ErrNothingToCompact):
			c.Error = "Nothing to compact: no earlier turn or tool output left to shorten."
		case t.ctx.Err() != nil:
			c.Status, c.Error = CompactionCancelled, "" // the schema has errors for failures only
		}
		s.emit(Update{Type: CompactionUpdated, Compaction: c})
		return r, err
	}
	s.emit(Update{Type: CompactionUpdated, Compaction: &Compaction{ID: id, Status: CompactionDone, Description: describeCompaction(r), Summary: r.Summary}})
	t.publishUsage()
	s.a.log.Info("compacted", "session", s.id, "reason", reason, "before", r.Before, "after", r.After,
		"stubbed", r.Stubbed, "summarized", r.Summarized, "pieces", r.Pieces)
	return r, nil
}

// compactHistory runs the compaction and installs its result.
func (t *turnRun) compactHistory(reason, focus string) (compact.Result, error) {
	s, ctx := t.s, t.ctx
	b := t.budget(reason)
	o := b.options(t, focus, reason != compactAuto, reason == compactManual)
	r, err := compact.Compact(ctx, t.history, o)
	if err != nil {
		return r, err
	}
	rec := compactionRecord{V: compactionRecordVersion, Reason: reason}
	if r.Summarized > 0 {
		parts, metas, reset := t.reinjectInstructions()
		parts = append(parts, t.restateRole()...)
		r.History[0].Content = append(parts, r.History[0].Content...)
		rec.InstructionsReset, rec.Instructions = reset, metas
		for _, p := range parts {
			r.After += o.MessageTokens(llm.Message{Role: llm.RoleUser, Content: []llm.Part{p}})
		}
	}
	rec.History, rec.Before, rec.After, rec.Stubbed, rec.Summarized = r.History, r.Before, r.After, r.Stubbed, r.Summarized
	s.record(recCompaction, rec)
	t.history = r.History
	s.do(context.Background(), s.hist.forgetMarkers)
	if rec.InstructionsReset {
		t.publishInstructions()
	}
	return r, nil
}

// reinjectInstructions restores the workspace instructions a summary took
// out of the model's view, as seed 002 asks, for the primary root and then
// each additional root (freshBaseline). It returns the parts to put at the
// head of the history and their metadata.
func (t *turnRun) reinjectInstructions() ([]llm.Part, []instructions.Meta, bool) {
	s, ctx := t.s, t.ctx
	tr := t.instr.tr
	if !tr.Enabled() {
		return nil, nil, false
	}
	bs, err := freshBaseline(ctx, tr)
	if err != nil {
		s.a.log.Warn("workspace instructions after compaction", "session", s.id, "err", err)
	}
	t.instr.reconciled = true // what follows is current
	bs = append(bs, t.rootsInstructions(func(rt rootInstr) ([]*instructions.Batch, error) {
		return freshBaseline(ctx, rt.tr)
	})...)
	var parts []llm.Part
	var metas []instructions.Meta
	for _, b := range bs {
		if b != nil {
			parts = append(parts, llm.Part{Type: llm.PartText, Text: b.Text})
			metas = append(metas, b.Meta)
		}
	}
	return parts, metas, true
}

// freshBaseline makes tr forget what it sent (the digests reset), composes
// its baseline anew and reaches every nested file it had loaded again.
func freshBaseline(ctx context.Context, tr *instructions.Tracker) ([]*instructions.Batch, error) {
	var nested []string
	for _, sc := range tr.Loaded() {
		if strings.HasPrefix(sc.Scope, "project:") || strings.HasPrefix(sc.Scope, "local:") {
			nested = append(nested, sc.File)
		}
	}
	tr.Reset()
	b, err := tr.Baseline(ctx)
	bs := []*instructions.Batch{b}
	if len(nested) > 0 {
		n, nerr := tr.Reconcile(ctx, nested)
		bs, err = append(bs, n), errors.Join(err, nerr)
	}
	return bs, err
}

// reinjected marks the parts a compacted history leaves out: instruction
// batches (restored fresh by reinjectInstructions) and the repository map
// (the model can call repo_map).
func reinjected(p llm.Part) bool {
	return p.Type == llm.PartText && (strings.HasPrefix(p.Text, "<system-reminder>\n") || strings.HasPrefix(p.Text, tools.RepoMapHeader))
}

func describeCompaction(r compact.Result) string {
	msg := fmt.Sprintf("Compacted the conversation from about %d to %d tokens", r.Before, r.After)
	if r.Stubbed > 0 {
		msg += fmt.Sprintf("; %d old tool outputs replaced by a note on how to get them again", r.Stubbed)
	}
	if r.Summarized > 0 {
		msg += fmt.Sprintf("; %d earlier messages summarised", r.Summarized)
		if r.Pieces > 1 {
			msg += fmt.Sprintf(" in %d pieces", r.Pieces)
		}
	}
	return msg + "."
}

// compactCommand is /compact [focus].
func (t *turnRun) compactCommand(focus string) (StopReason, error) {
	s := t.s
	if len(t.history) == 0 {
		s.say("Nothing to compact yet: the conversation is empty.")
		return StopEndTurn, nil
	}
	_, err := t.compact(compactManual, strings.TrimSpace(focus))
	switch {
	case errors.Is(err, compact.ErrNothingToCompact):
		s.say("Nothing to compact: the conversation has no earlier turn or tool output to shorten.")
		return StopEndTurn, nil
	case err != nil && t.ctx.Err() != nil:
		return StopCancelled, nil
	case err != nil:
		return "", err
	}
	return StopEndTurn, nil
}

// overflowError is the error a turn ends with when the provider still
// refuses the history after a compaction.
func overflowError(err error) error {
	return fmt.Errorf("the conversation does not fit the model's context window even after compacting it; "+
		"run /compact with what to keep, switch to a model with a larger window, or start a new session: %w", err)
}

// publishUsage sends a usage_update for the history as it is now.
func (t *turnRun) publishUsage() {
	s := t.s
	req := t.baseRequest()
	req.Messages = t.history
	_, total := s.Usage()
	cu := &ContextUsage{Used: s.a.est.Estimate(req), Size: s.a.window(req.Model)}
	if total.Priced {
		cu.Cost = &Cost{Amount: total.Cost, Currency: "USD"}
	}
	s.emit(Update{Type: UsageUpdated, Usage: cu})
}
