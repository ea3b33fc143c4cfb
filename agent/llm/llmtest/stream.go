package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// stream writes SSE events with the reply's delay, cut and hang behaviour.
type stream struct {
	w     http.ResponseWriter
	r     *http.Request
	done  <-chan struct{}
	delay time.Duration
	cut   int // events left before the cut; 0 means never
	sent  int
	// frame encodes one event in a binary framing (Bedrock's event
	// stream) instead of SSE; nil for SSE.
	frame func(name string, payload []byte) []byte
}

func newStream(w http.ResponseWriter, r *http.Request, done <-chan struct{}, reply Reply, f Format) *stream {
	s := &stream{w: w, r: r, done: done, delay: time.Duration(reply.Delay), cut: reply.CutAfter}
	contentType := "text/event-stream"
	if f == Bedrock {
		contentType, s.frame = "application/vnd.amazon.eventstream", eventFrame
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush(w)
	return s
}

// event sends one event (name may be empty, as OpenAI sends none). It
// returns false when the client is gone; callers then stop writing.
func (s *stream) event(name string, data any) bool {
	if s.delay > 0 {
		t := time.NewTimer(s.delay)
		select {
		case <-t.C:
		case <-s.r.Context().Done():
			t.Stop()
			return false
		case <-s.done:
			t.Stop()
			return false
		}
	}
	var payload []byte
	if raw, ok := data.(string); ok {
		payload = []byte(raw)
	} else {
		payload = mustJSON(data)
	}
	if s.frame != nil {
		return s.write(s.frame(name, payload))
	}
	var head string
	if name != "" {
		head = "event: " + name + "\n"
	}
	if s.cut > 0 && s.sent == s.cut {
		// Half an event, then a connection reset: the client sees the
		// stream break in the middle of a JSON object.
		io.WriteString(s.w, head+"data: "+string(payload[:len(payload)/2]))
		flush(s.w)
		panic(http.ErrAbortHandler)
	}
	s.sent++
	if _, err := fmt.Fprintf(s.w, "%sdata: %s\n\n", head, payload); err != nil {
		return false
	}
	flush(s.w)
	return true
}

// write sends one binary frame, or half of it and a reset at the cut.
func (s *stream) write(frame []byte) bool {
	if s.cut > 0 && s.sent == s.cut {
		s.w.Write(frame[:len(frame)/2])
		flush(s.w)
		panic(http.ErrAbortHandler)
	}
	s.sent++
	if _, err := s.w.Write(frame); err != nil {
		return false
	}
	flush(s.w)
	return true
}

// stops reports whether a writer ends before its stop events, doing
// what the reply scripts there: nothing when the client went away (ok
// false) or for NoFinish, the error event (sent by streamError), or a
// hang until the client goes away.
func (s *stream) stops(ok bool, reply *Reply, streamError func()) bool {
	switch {
	case !ok:
		return true
	case reply.StreamError != "":
		streamError()
		return true
	case reply.Hang:
		s.hang()
		return true
	}
	return reply.NoFinish
}

// hang blocks until the client disconnects or the server closes.
func (s *stream) hang() {
	select {
	case <-s.r.Context().Done():
	case <-s.done:
	}
}

func flush(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest: marshal %T: %v", v, err))
	}
	return b
}
