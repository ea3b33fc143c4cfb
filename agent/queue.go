package agent

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/tandemhq/tandem/agent/llm"
)

// Prompts queue behind a running turn rather than being refused: an
// editor lets the user type while the agent works. The actor owns the
// queue (actorState.queued). The turn looks at it at each step boundary —
// after a response's tool calls have all finished, before the next request
// — and hands the model every prompt queued there as part of the user
// message it is sending anyway (steering). A queued slash command is
// never steered: it waits for a turn of its own, and so does every prompt
// queued behind it, which keeps the order the user typed. A prompt the
// turn did not reach starts its own turn as soon as the running one ends.
//
// Each prompt is answered on its own and in order. The prompt a turn is
// answering for ends its part when the model sees the next one: it is
// answered end_turn with the tokens of its part, after everything its part
// sent, and the next prompt answers for the rest of the turn. Cancel ends
// the turn and answers every prompt queued before it cancelled. Order on
// the wire needs the front door's word: the turn goes on, and gives the
// next answer, only once the front door has said through Answer.Written
// that it wrote the previous one.

// errCancelAll is the cause of a turn stopped by Cancel, which also ends
// the prompts queued behind it.
var errCancelAll = errors.New("the session was cancelled")

// Answer is how one prompt ended: its stop reason and the tokens of its
// part of the turn (the requests made between the model seeing it and the
// model seeing the next prompt, or the turn's end).
type Answer struct {
	StopReason StopReason
	Usage      UsageTotals
	w          *waiter
}

// Written tells the session that the answer is on its way to the client
// (its response is written, or will never be): nothing of what comes after
// it is sent before. Submit's caller must call it; more calls do nothing.
func (a Answer) Written() {
	if a.w != nil {
		a.w.once.Do(func() { close(a.w.written) })
	}
}

// waiter is one prompt waiting for its answer: the one a turn answers for,
// or one queued behind it.
type waiter struct {
	ctx    context.Context
	prompt []ContentBlock
	answer chan turnResult // buffered: answered exactly once
	// written is closed by Answer.Written.
	written chan struct{}
	once    sync.Once
	// unwatch stops the watch on ctx (see accept).
	unwatch func() bool
	// late is set for a prompt queued after the running turn was
	// cancelled: that cancel is not about it, so it keeps its place.
	late bool
}

func (w *waiter) reply(r turnResult) { w.answer <- r }

// Submit runs prompt: at once when the session is idle, else queued
// behind the running turn (see above). It returns the prompt's answer once
// the last update of its part is on the wire; the caller calls its Written
// once it has passed the answer on. Cancellation (Cancel, or ctx while the
// prompt is queued or its part runs) ends it with StopCancelled, not an
// error; ctx ending while a later prompt's part runs does nothing.
func (s *Session) Submit(ctx context.Context, prompt []ContentBlock) (Answer, error) {
	w := &waiter{ctx: ctx, prompt: prompt, answer: make(chan turnResult, 1), written: make(chan struct{})}
	var err error
	if derr := s.do(ctx, func() { err = s.accept(w) }); derr != nil {
		return Answer{}, derr
	}
	if err != nil {
		return Answer{}, err
	}
	r := <-w.answer
	w.unwatch()
	return Answer{StopReason: r.reason, Usage: r.usage, w: w}, s.a.cfg.Redact.Error(r.err)
}

// accept runs on the actor: it starts w's turn, or queues w behind the
// running one. A prompt's ctx is watched from here on: ending while it
// is queued takes it out of the queue, while its part runs cancels the turn
// (the queue goes on).
func (s *Session) accept(w *waiter) error {
	if s.st.closed {
		return ErrClosed
	}
	w.unwatch = context.AfterFunc(w.ctx, func() {
		s.do(context.Background(), func() { s.promptGone(w) })
	})
	if s.st.turn == nil {
		s.beginTurn(w, nil)
		return nil
	}
	w.late = errors.Is(context.Cause(s.st.turn.ctx), errCancelAll)
	s.st.queued = append(s.st.queued, w)
	s.a.log.Debug("prompt queued behind the running turn", "session", s.id, "queued", len(s.st.queued))
	return nil
}

// promptGone runs on the actor when w's context has ended.
func (s *Session) promptGone(w *waiter) {
	if i := slices.Index(s.st.queued, w); i >= 0 {
		s.st.queued = slices.Delete(s.st.queued, i, i+1)
		// Answered now: whatever comes before it is still running and
		// answers later, but this one never reached the model.
		w.reply(turnResult{reason: StopCancelled})
		return
	}
	if t := s.st.turn; t != nil && t.answering == w {
		t.cancel()
	}
}

// takeQueued runs on the actor at a step boundary: the prompts the model
// may see now, in order, up to the first slash command.
func (s *Session) takeQueued(t *turnRun) []*waiter {
	if t.ctx.Err() != nil {
		return nil
	}
	n := 0
	for n < len(s.st.queued) {
		if _, _, cmd := slashCommand(s.st.queued[n].prompt); cmd {
			break
		}
		n++
	}
	taken := slices.Clone(s.st.queued[:n])
	s.st.queued = slices.Delete(s.st.queued, 0, n)
	return taken
}

// nextTurn runs on the actor as turn t ends: the prompts queued before a
// Cancel (or all of them, once the session is closing) are to be answered
// cancelled after t's own answer; the first of the rest starts its turn,
// which waits until t has answered.
func (s *Session) nextTurn(t *turnRun) {
	all := s.st.closed || errors.Is(context.Cause(t.ctx), errCancelAll)
	kept := s.st.queued[:0]
	for _, w := range s.st.queued {
		if all && (!w.late || s.st.closed) {
			t.dropped = append(t.dropped, w)
			continue
		}
		w.late = false // the next turn's cancel is about it
		kept = append(kept, w)
	}
	clear(s.st.queued[len(kept):])
	s.st.queued = kept
	if len(s.st.queued) == 0 {
		return
	}
	next := s.st.queued[0]
	s.st.queued = slices.Delete(s.st.queued, 0, 1)
	s.beginTurn(next, t.delivered)
}

// steer runs at a step boundary of the session's own turn: it returns the
// queued prompts the model sees now as parts of the user message about to
// be sent, logs each where it was seen (a replay shows it there), and
// hands the turn's answer on to the last of them.
func (t *turnRun) steer() []llm.Part {
	s := t.s
	if t.sub != nil || t.ctx.Err() != nil {
		return nil
	}
	var taken []*waiter
	if s.do(t.ctx, func() { taken = s.takeQueued(t) }) != nil || len(taken) == 0 {
		return nil
	}
	var parts []llm.Part
	for _, w := range taken {
		t.logPrompt(w.prompt)
		p, err := t.userParts(w.prompt)
		if err != nil {
			// The prompt is still answered in its place; the user is
			// told why the model did not see it.
			s.notice("a prompt queued during the turn was not given to the model: " + err.Error())
		}
		parts = append(parts, p...)
		t.handOff(w)
	}
	return parts
}

// handOff ends the part of the turn the current prompt answers for: once
// its updates are on the wire it is answered end_turn with its part's
// tokens, and w answers for the rest.
func (t *turnRun) handOff(w *waiter) {
	s := t.s
	s.out.drain()
	var (
		prev  *waiter
		usage UsageTotals
	)
	s.do(context.Background(), func() {
		prev, usage = t.answering, s.st.usage.turn
		s.st.usage.turn = UsageTotals{}
		t.answering = w
	})
	prev.reply(turnResult{reason: StopEndTurn, usage: usage})
	t.waitWritten(prev)
	if w.ctx.Err() != nil {
		t.cancel() // it ended while neither queued nor answered for
	}
}

// waitWritten waits until w's answer is written, or the session closes
// (a connection that failed to write it ends the session).
func (t *turnRun) waitWritten(w *waiter) {
	select {
	case <-w.written:
	case <-t.closing:
	}
}
