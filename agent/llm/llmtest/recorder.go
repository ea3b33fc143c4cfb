package llmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
)

// Recorder collects the events a provider emits; its Emit is the callback
// to pass to Provider.Stream.
type Recorder struct {
	mu     sync.Mutex // guards events
	events []llm.Event
}

// Emit records e.
func (r *Recorder) Emit(e llm.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

// Events returns the events so far.
func (r *Recorder) Events() []llm.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]llm.Event(nil), r.events...)
}

func (r *Recorder) of(t llm.EventType) []llm.Event {
	var out []llm.Event
	for _, e := range r.Events() {
		if e.Type == t {
			out = append(out, e)
		}
	}
	return out
}

func (r *Recorder) texts(t llm.EventType) []string {
	var out []string
	for _, e := range r.of(t) {
		out = append(out, e.Text)
	}
	return out
}

func (r *Recorder) first(t llm.EventType) *llm.Event {
	if es := r.of(t); len(es) > 0 {
		return &es[0]
	}
	return nil
}

func (r *Recorder) last() llm.Event {
	es := r.Events()
	if len(es) == 0 {
		return llm.Event{}
	}
	return es[len(es)-1]
}

// stream runs one request with a deadline so a broken provider fails the
// test instead of hanging it.
func run(t *testing.T, ctx context.Context, p llm.Provider, req *llm.Request) (*Recorder, *llm.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	rec := &Recorder{}
	resp, err := p.Stream(ctx, req, rec.Emit)
	if err == nil && resp == nil {
		t.Fatal("Stream returned neither a response nor an error")
	}
	return rec, resp, err
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
}

func asError(t *testing.T, err error) *llm.Error {
	t.Helper()
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *llm.Error", err, err)
	}
	return e
}

func parts(m llm.Message, typ llm.PartType) []llm.Part {
	var out []llm.Part
	for _, p := range m.Content {
		if p.Type == typ {
			out = append(out, p)
		}
	}
	return out
}

func jsonEqual(a json.RawMessage, b string) bool {
	if b == "" {
		b = "{}"
	}
	var x, y bytes.Buffer
	if json.Compact(&x, a) != nil || json.Compact(&y, []byte(b)) != nil {
		return false
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}
