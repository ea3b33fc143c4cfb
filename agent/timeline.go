package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tandemhq/tandem/agent/llm"
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
		tl := &s.st.marks
		n := len(s.st.history)
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
		if _, ok := s.st.marks.markers[marker]; !ok {
			err = fmt.Errorf("%w: %q", ErrNoMarker, marker)
			return
		}
		if s.st.turn != nil {
			s.st.marks.pending, deferred = marker, true
			return
		}
		ev = s.applyRewind(marker)
	}); derr != nil {
		return false, derr
	}
	s.fireRewind(ctx, ev)
	return deferred, err
}

// applyRewind truncates the history on the actor and logs it.
func (s *Session) applyRewind(marker string) *TimelineRewindEvent {
	n, ok := s.st.marks.markers[marker]
	if !ok || n > len(s.st.history) {
		return nil
	}
	removed := len(s.st.history) - n
	s.cutTimeline(n)
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

// cutTimeline keeps the first n messages and the markers within them.
func (s *Session) cutTimeline(n int) {
	s.st.history = s.st.history[:n:n]
	for name, at := range s.st.marks.markers {
		if at > n {
			delete(s.st.marks.markers, name)
		}
	}
}

// endTurnRewind runs on the actor as a turn ends: the rewind it asked for.
func (s *Session) endTurnRewind() *TimelineRewindEvent {
	m := s.st.marks.pending
	s.st.marks.pending = ""
	if m == "" {
		return nil
	}
	return s.applyRewind(m)
}

func (s *Session) fireRewind(ctx context.Context, ev *TimelineRewindEvent) {
	if ev == nil {
		return
	}
	for _, f := range s.a.cfg.Pipeline.TimelineRewind {
		f(ctx, *ev)
	}
}

// forgetMarkers runs on the actor after a compaction: the lengths markers
// hold no longer mean the same points.
func (s *Session) forgetMarkers() {
	s.st.marks.markers = nil
	s.st.marks.base = -1
}

// restoreTimeline replays a marker or rewind record of the log.
func (s *Session) restoreTimeline(kind string, data json.RawMessage) {
	var r markerRecord
	if err := json.Unmarshal(data, &r); err != nil || r.Len < 0 {
		s.a.log.Warn("session log: timeline record skipped", "session", s.id, "err", err)
		return
	}
	switch {
	case kind == recMarker:
		if s.st.marks.markers == nil {
			s.st.marks.markers = map[string]int{}
		}
		s.st.marks.markers[r.Name] = r.Len
	case r.Len <= len(s.st.history):
		s.cutTimeline(r.Len)
	}
}

// Deliver hands the model a message from outside the conversation (a
// plugin's): it goes with the next prompt, before the user's text, so the
// history stays an alternation and the request prefix is untouched.
func (s *Session) Deliver(ctx context.Context, text string) error {
	if text == "" {
		return errors.New("the message is empty")
	}
	return s.do(ctx, func() { s.st.marks.delivered = append(s.st.marks.delivered, text) })
}

// takeDelivered returns, once, the messages delivered since the last prompt.
func (t *turnRun) takeDelivered() []llm.Part {
	var texts []string
	t.s.do(context.Background(), func() { texts, t.s.st.marks.delivered = t.s.st.marks.delivered, nil })
	var out []llm.Part
	for _, x := range texts {
		out = append(out, llm.Part{Type: llm.PartText, Text: x})
	}
	return out
}
