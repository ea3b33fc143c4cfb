package agent

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/models"
)

// compactionRecordVersion is the shape of a recCompaction record; a record
// of another version is skipped on load, and the history before it stays.
const compactionRecordVersion = 1

// compactionRecord is what the log keeps of one compaction: the model
// history from then on (the editor's replay keeps the whole conversation;
// only the model continues from this) and the instructions it carries.
type compactionRecord struct {
	V          int           `json:"v"`
	Reason     string        `json:"reason"`
	History    []llm.Message `json:"history"`
	Before     int           `json:"before"`
	After      int           `json:"after"`
	Stubbed    int           `json:"stubbed,omitempty"`
	Summarized int           `json:"summarized,omitempty"`
	// InstructionsReset says the instruction state restarts here with
	// Instructions (the re-injected baseline and nested files).
	InstructionsReset bool                `json:"instructionsReset,omitempty"`
	Instructions      []instructions.Meta `json:"instructions,omitempty"`
}

// compactBudget is how many tokens a compaction works with.
type compactBudget struct {
	model  string
	window int
	room   int // tokens the history may use below the threshold
}

// budget measures the room the history has under the threshold once the
// system prompt and tools are counted. After an overflow the provider has
// shown the estimate to be low, so the room is halved.
func (t *turnRun) budget(reason string) compactBudget {
	s := t.s
	req := t.baseRequest()
	w := s.a.window(req.Model)
	room := int(s.a.compactAt()*float64(w)) - s.a.est.Estimate(req)
	room = max(room, w/8)
	if reason == compactOverflow {
		room /= 2
	}
	return compactBudget{model: req.Model, window: w, room: room}
}

// summaryTokens caps a summary's length.
func (b compactBudget) summaryTokens() int { return min(4096, max(b.window/8, 512)) }

// options are the compaction's budgets. force summarises even when stubs
// would do (the user asked, or the provider refused the history); a
// compaction the user asked for frees more, keeping a third of the
// verbatim tail an automatic one keeps.
func (b compactBudget) options(t *turnRun, focus string, force, manual bool) compact.Options {
	est := t.s.a.est
	text := func(s string) int { return est.Estimate(&llm.Request{Model: b.model, System: s}) }
	// One summary request carries its system prompt, the previous
	// summary, a piece of transcript and room for the answer; estimates
	// can be low, so a piece gets three quarters of what is left.
	piece := int(0.75 * float64(b.window-2*b.summaryTokens()-text(compact.SummarySystem)-256))
	keep := b.room * 3 / 10
	if manual {
		keep = b.room / 10
	}
	return compact.Options{
		Target: b.room * 6 / 10,
		Keep:   keep,
		Force:  force,
		Focus:  focus,
		MessageTokens: func(m llm.Message) int {
			return est.Estimate(&llm.Request{Model: b.model, Messages: []llm.Message{m}})
		},
		TextTokens:  text,
		PieceTokens: piece,
		Summarize:   t.summarizer(b),
		Reinjected:  reinjected,
	}
}

// summarizer asks the session's model for a summary. The request is a side
// request with its own system prompt and no tools; its tokens count toward
// the session's usage.
func (t *turnRun) summarizer(b compactBudget) func(ctx context.Context, system, user string) (string, error) {
	s := t.s
	return func(ctx context.Context, system, user string) (string, error) {
		req := &llm.Request{Model: b.model, System: system, Messages: []llm.Message{llm.Text(llm.RoleUser, user)}, MaxTokens: b.summaryTokens()}
		resp, err := s.a.cfg.Provider.Stream(ctx, req, func(llm.Event) {})
		if err != nil {
			return "", err
		}
		m := models.MeasureOf(req)
		t.recordUsage(ctx, req, m, s.a.est.EstimateMeasure(m), resp, nil)
		var text strings.Builder
		for _, p := range resp.Message.Content {
			if p.Type == llm.PartText {
				text.WriteString(p.Text)
			}
		}
		return text.String(), nil
	}
}

// restoreCompaction applies a logged compaction to a loading session: the
// model history restarts from the record. A record that cannot be read is
// skipped, and the history before it stays: a compaction cut short by a
// crash is discarded, never half-applied.
func (p *historyLog) restoreCompaction(data json.RawMessage, instr *[]json.RawMessage) {
	s := p.s
	var r compactionRecord
	if err := json.Unmarshal(data, &r); err != nil || r.V != compactionRecordVersion || len(r.History) == 0 {
		s.a.log.Warn("session log: compaction record skipped", "session", s.id, "version", r.V, "err", err)
		return
	}
	p.msgs = r.History
	if r.InstructionsReset {
		*instr = (*instr)[:0]
		for _, m := range r.Instructions {
			b, err := json.Marshal(m)
			if err == nil {
				*instr = append(*instr, b)
			}
		}
	}
}
