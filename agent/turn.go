package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/agent/store"
	"github.com/tandemhq/tandem/agent/turn"
	"github.com/tandemhq/tandem/internal/atomicfile"
)

// turnRun is one prompt turn: its beginning and end on the actor (here),
// and the session's side of the pipeline package turn runs
// (turn_session.go, toolrun.go). It runs on its own goroutine so the
// actor stays free; history (with its sizes) and instr are lent to it by the actor for its
// duration, everything else it asks the actor for.
type turnRun struct {
	s       *Session
	ctx     context.Context
	cancel  context.CancelFunc
	model   string // a custom command's model for this turn; empty: the session's
	prompt  []ContentBlock
	history []llm.Message
	sizes   *models.Sizer // what history measured (Measure); nil until the first
	instr   *instrState
	sub     *subagent // set when this is a child turn run by the task tool
	feed    viewFeed  // the session's settings as this turn sees them (turnview.go)
	// cancelAll is Session.Cancel's: it also ends the prompts queued
	// behind the turn (nextTurn).
	cancelAll context.CancelFunc
	// edits defers the fsync of files the local host writes during the
	// turn (ctx carries it, children's calls included) to the turn's end.
	edits *atomicfile.Batch
	// answering is the prompt whose part of the turn runs (set on the
	// actor: beginTurn, handOff); dropped are queued prompts to answer
	// cancelled after it (nextTurn). after is closed once the previous
	// turn has answered, delivered once this one has.
	answering        *waiter
	dropped          []*waiter
	after, delivered chan struct{}
	closing          chan struct{} // closed when the session closes (shutdown)
	// sent is the model and estimated size of the latest request sent:
	// what a refusal of it as too long is about (learnLimit).
	sent sentRequest
}

type turnResult struct {
	reason StopReason
	err    error
	usage  UsageTotals
}

// beginTurn runs on the actor: it lends w's turn the history and
// instructions and starts it; the turn waits for after (the previous
// turn's answer) before it does anything. The turn's context keeps w's
// values but not its end: the turn may outlive w's part (see accept).
func (s *Session) beginTurn(w *waiter, after chan struct{}) {
	prompt := w.prompt
	edited := &atomicfile.Batch{}
	ctx, stop := context.WithCancelCause(atomicfile.WithBatch(context.WithoutCancel(w.ctx), edited))
	t := &turnRun{s: s, ctx: ctx, prompt: prompt, edits: edited,
		history: s.hist.msgs, sizes: s.hist.sizes, instr: s.custom.instr,
		answering: w, after: after, delivered: make(chan struct{}), closing: make(chan struct{})}
	t.cancel = func() { stop(context.Canceled) }
	t.cancelAll = func() { stop(errCancelAll) }
	t.feed = s.watch()
	s.hist.msgs, s.hist.sizes, s.custom.instr = nil, nil, nil
	s.st.turn = t
	s.st.lifecycle = Running
	s.st.usage.turn = UsageTotals{}
	s.hist.marks.base = len(t.history)
	if s.st.title.text == "" {
		s.st.title.text = store.Title(promptText(prompt))
	}
	s.turns.Add(1)
	go t.run()
}

// endTurn runs on the actor: it takes back what the turn borrowed and
// records how the turn ended. It returns the sidecar to save.
func (s *Session) endTurn(t *turnRun, r turnResult) *store.Meta {
	s.unwatch(t.feed)
	s.st.turn = nil
	s.hist.msgs, s.hist.sizes, s.custom.instr = t.history, t.sizes, t.instr
	switch {
	case r.reason == StopCancelled:
		s.st.lifecycle = Cancelled
	case r.err != nil:
		s.st.lifecycle = Failed
	default:
		s.st.lifecycle = Idle
	}
	s.st.outcome = Outcome{StopReason: r.reason}
	if r.err != nil {
		s.st.outcome.Err = r.err.Error()
	}
	return s.meta()
}

// answer gives the turn's result to the prompt answering for its last
// part, then cancels the queued prompts a Cancel ended, each once the
// answer before it is written.
func (t *turnRun) answer(r turnResult) {
	t.answering.reply(r)
	t.waitWritten(t.answering)
	for _, w := range t.dropped {
		w.reply(turnResult{reason: StopCancelled})
		t.waitWritten(w)
	}
	close(t.delivered)
}

// run is the turn's goroutine: turn start, the steps, turn end; then the
// state goes back to the actor and the FIFO is flushed, so the turn's last
// update is on the wire before Prompt returns.
func (t *turnRun) run() {
	s := t.s
	defer s.turns.Done()
	if t.after != nil {
		<-t.after // the previous turn's answers come first
	}
	s.a.cfg.Pipeline.turnStart(t.ctx, TurnStartEvent{SessionID: s.id, Prompt: t.prompt})
	var r turnResult
	r.reason, r.err = t.steps()
	s.a.cfg.Pipeline.turnEnd(context.WithoutCancel(t.ctx), TurnEndEvent{SessionID: s.id, StopReason: r.reason, Err: r.err})
	t.cancel()
	var meta *store.Meta
	var rewound *TimelineRewindEvent
	var usage UsageTotals
	var titling *titleRequest
	s.do(context.Background(), func() { // the actor waits for this turn, so it answers
		meta, usage = s.endTurn(t, r), s.st.usage.turn
		rewound = s.hist.endTurnRewind()
		titling = s.wantTitle()
		s.nextTurn(t)
	})
	s.hist.fireRewind(context.WithoutCancel(t.ctx), rewound)
	// Live only: a replay is followed by session/list's own title and time.
	t.emitLive(Update{Type: SessionInfoUpdated, Info: &SessionInfo{Title: meta.Title, UpdatedAt: meta.Updated}})
	s.saveMeta(meta)
	// Before the answer every update is on the wire and written to the log
	// file, and every edit is in place: a kill -9 of tandem from then on
	// loses nothing. A failure to write the log is told once (reportSave),
	// while the store keeps the records until there is room.
	if s.hist.reportSave(s.out.written()) {
		// The notice leaves before the prompt's answer; its own failure
		// to save is the one it reports.
		s.out.written()
	}
	r.usage = usage
	t.answer(r)
	if titling != nil {
		// After the answer, which it need not hold up (its goroutine and
		// request took CPU on the answer's way), and after the update and
		// sidecar above, which carry the title it replaces.
		s.turns.Add(1) // this turn is counted still, so Close cannot be past its Wait
		go s.askTitle(titling)
	}
	t.syncTurn()
}

// syncTurn puts the turn on stable storage, its log, sidecar and edited
// files, right after the answer: the editor does not wait for the disk,
// only a crash of the machine in these few milliseconds can lose the
// turn. It runs on the turn's goroutine, so Close waits for it; a next
// turn may start meanwhile, its items ordered around the sync by the
// FIFO (a logged() behind the sync waits for its fsync). Edits are
// synced once per file, beside the log, so their fsyncs can share the
// file system's journal commits. Failures are told as notices.
func (t *turnRun) syncTurn() {
	s := t.s
	edits := make(chan error, 1)
	go func() { edits <- t.edits.Sync() }()
	flushed := s.out.flush()
	if err := <-edits; err != nil {
		s.a.log.Error("syncing edited files failed", "session", s.id, "err", err)
		s.notice(fmt.Sprintf("Could not save the edited files to disk: %v. They hold the new content, but a crash of the machine may lose it.", err))
	}
	if flushed != nil {
		s.hist.reportSave(flushed)
	}
}

// steps logs the prompt and either runs a slash command or converses.
func (t *turnRun) steps() (StopReason, error) {
	t.logPrompt(t.prompt)
	t.refreshCustom()
	if name, arg, ok := slashCommand(t.prompt); ok {
		if c, ok := t.s.custom.builtins(t.view().defs)[name]; ok {
			return c.run(t, arg)
		}
		if run, ok := t.customRunner(name); ok {
			return run(arg)
		}
	}
	return t.converse(t.prompt)
}

// converse prepares the prompt as the model sees it (the seam's context,
// instructions, the repository map, the mode's role) and runs the turn's
// pipeline on it (turn.Run).
func (t *turnRun) converse(prompt []ContentBlock) (StopReason, error) {
	s, ctx := t.s, t.ctx
	if err := s.a.Ready(); err != nil {
		return "", err
	}
	parts, err := t.userParts(prompt)
	var refused refusedError
	if errors.As(err, &refused) {
		if ctx.Err() != nil {
			return StopCancelled, nil
		}
		s.notice(err.Error())
		return StopRefusal, nil
	}
	if err != nil {
		return "", err
	}
	parts = append(t.takeSkillNote(), parts...)
	parts = append(t.takeDelivered(), parts...)
	first := len(t.history) == 0
	if err := t.prepare(); err != nil {
		if ctx.Err() != nil {
			return StopCancelled, nil
		}
		return "", err
	}
	if first {
		t.addRepoMap()
	}
	t.mcpInstructions()
	parts = append(t.modeRole(), parts...)

	out, err := turn.Run(ctx, t.config(), t, llm.Message{Role: llm.RoleUser, Content: parts})
	return StopReason(out.Stop), err
}

// appendHistory adds m to the model history and the log.
func (t *turnRun) appendHistory(m llm.Message) {
	t.history = append(t.history, m)
	if t.sub == nil { // a child's history is its own, never the session's
		t.record(recMessage, m)
	}
}
