package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/models"
)

// Conversation markers and rewind. A marker names a point in the model
// history (a length); rewinding truncates the history back to it. Like a
// compaction, a rewind is an allowed rewrite of the request prefix: the
// next request starts from the shorter history. Both are logged, so a
// reopened session replays to the same history and keeps its markers.
// The messages a rewind removes are still in the log's updates, so an
// editor replaying the session shows them; the model never sees them again.

// Session log records of the timeline.
const (
	recMarker = "marker" // markerRecord
	recRewind = "rewind" // markerRecord: the history was cut back to Len
)

type markerRecord struct {
	Name string `json:"name"`
	Len  int    `json:"len"`
}

// historyLog is the session's history part: the model history (lent to
// the running turn, nil meanwhile), its markers and rewinds, and whether
// the log could be saved. The log itself is Session.log, written through
// the update FIFO. Its fields other than s belong to the actor.
type historyLog struct {
	s    *Session
	msgs []llm.Message
	// sizes remembers what msgs measured for the estimator, lent to a
	// running turn with msgs.
	sizes   *models.Sizer
	marks   timelineState
	unsaved bool // the last turn's log could not be saved, and the user was told (reportSave)
}

// timelineState is the session's markers and the rewind a running turn
// asked for, applied when it ends.
type timelineState struct {
	markers map[string]int
	// base is where a marker written during the running turn points: the
	// history's length when the turn began, or -1 after the turn compacted.
	base    int
	pending string
	// delivered are messages for the model (Deliver), sent with the next
	// prompt.
	delivered []string
}

// ErrNoMarker is a rewind to a marker the session does not know (never
// written, or dropped by a compaction or an earlier rewind).
var ErrNoMarker = errors.New("no such marker")

// TimelineRewindEvent is the conversation cut back to a marker.
type TimelineRewindEvent struct {
	SessionID string
	Marker    string
	Removed   int // model messages dropped
}

// Mark writes a marker into the conversation: while a turn runs, at the
// point just before its prompt; otherwise at the end.
func (s *Session) Mark(ctx context.Context, name string) error {
	if name == "" {
		return errors.New("a marker needs a name")
	}
	var err error
	if derr := s.do(ctx, func() {
		tl := &s.hist.marks
		n := len(s.hist.msgs)
		if s.st.turn != nil {
			if n = tl.base; n < 0 {
				err = errors.New("the conversation was compacted during this turn; no marker can point before it")
				return
			}
		}
		if tl.markers == nil {
			tl.markers = map[string]int{}
		}
		tl.markers[name] = n
		s.record(recMarker, markerRecord{Name: name, Len: n})
	}); derr != nil {
		return derr
	}
	return err
}

// Rewind cuts the conversation back to a marker. Asked during a turn, it
// happens when the turn ends (the turn holds the history until then) and
// deferred is true; otherwise the TimelineRewind seam runs before it
// returns.
func (s *Session) Rewind(ctx context.Context, marker string) (deferred bool, err error) {
	var ev *TimelineRewindEvent
	if derr := s.do(ctx, func() {
		if _, ok := s.hist.marks.markers[marker]; !ok {
			err = fmt.Errorf("%w: %q", ErrNoMarker, marker)
			return
		}
		if s.st.turn != nil {
			s.hist.marks.pending, deferred = marker, true
			return
		}
		ev = s.hist.rewind(marker)
	}); derr != nil {
		return false, derr
	}
	s.hist.fireRewind(ctx, ev)
	return deferred, err
}

// rewind truncates the history on the actor and logs it.
func (p *historyLog) rewind(marker string) *TimelineRewindEvent {
	s := p.s
	n, ok := p.marks.markers[marker]
	if !ok || n > len(p.msgs) {
		return nil
	}
	removed := len(p.msgs) - n
	p.cut(n)
	if n == 0 && s.custom.instr != nil {
		// Nothing the instructions tracker sent is left: send it again.
		s.custom.instr.tr.Reset()
		for _, rt := range s.custom.instr.roots {
			rt.tr.Reset()
		}
	}
	s.record(recRewind, markerRecord{Name: marker, Len: n})
	return &TimelineRewindEvent{SessionID: s.id, Marker: marker, Removed: removed}
}

// cut keeps the first n messages and the markers within them.
func (p *historyLog) cut(n int) {
	p.msgs = p.msgs[:n:n]
	for name, at := range p.marks.markers {
		if at > n {
			delete(p.marks.markers, name)
		}
	}
}

// endTurnRewind runs on the actor as a turn ends: the rewind it asked for.
func (p *historyLog) endTurnRewind() *TimelineRewindEvent {
	m := p.marks.pending
	p.marks.pending = ""
	if m == "" {
		return nil
	}
	return p.rewind(m)
}

func (p *historyLog) fireRewind(ctx context.Context, ev *TimelineRewindEvent) {
	s := p.s
	if ev == nil {
		return
	}
	for _, f := range s.a.cfg.Pipeline.TimelineRewind {
		f(ctx, *ev)
	}
}

// forgetMarkers runs on the actor after a compaction: the lengths markers
// hold no longer mean the same points.
func (p *historyLog) forgetMarkers() {
	p.marks.markers = nil
	p.marks.base = -1
}

// restoreMark replays a marker or rewind record of the log.
func (p *historyLog) restoreMark(kind string, data json.RawMessage) {
	s := p.s
	var r markerRecord
	if err := json.Unmarshal(data, &r); err != nil || r.Len < 0 {
		s.a.log.Warn("session log: timeline record skipped", "session", s.id, "err", err)
		return
	}
	switch {
	case kind == recMarker:
		if p.marks.markers == nil {
			p.marks.markers = map[string]int{}
		}
		p.marks.markers[r.Name] = r.Len
	case r.Len <= len(p.msgs):
		p.cut(r.Len)
	}
}

// Deliver hands the model a message from outside the conversation (a
// plugin's): it goes with the next prompt, before the user's text, so the
// history stays an alternation and the request prefix is untouched.
func (s *Session) Deliver(ctx context.Context, text string) error {
	if text == "" {
		return errors.New("the message is empty")
	}
	return s.do(ctx, func() { s.hist.marks.delivered = append(s.hist.marks.delivered, text) })
}

// takeDelivered returns, once, the messages delivered since the last prompt.
func (t *turnRun) takeDelivered() []llm.Part {
	var texts []string
	t.s.do(context.Background(), func() { texts, t.s.hist.marks.delivered = t.s.hist.marks.delivered, nil })
	var out []llm.Part
	for _, x := range texts {
		out = append(out, llm.Part{Type: llm.PartText, Text: x})
	}
	return out
}
