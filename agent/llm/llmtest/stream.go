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
}

func newStream(w http.ResponseWriter, r *http.Request, done <-chan struct{}, reply Reply) *stream {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush(w)
	return &stream{w: w, r: r, done: done, delay: time.Duration(reply.Delay), cut: reply.CutAfter}
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
