package main

import (
	"bytes"
	"net/http"
	"sync"
)

// replay answers the long session's requests with the reply recorded for
// the first one on the same path. Every turn gets the same short answer,
// and llmtest decoding the whole history each turn, in the bench's
// process on the machine's cores beside tandem, grew with the session
// and ran while tandem wound its turns up: at turn 500 it spent 6-7 ms a
// turn, and tandem's CPU measured in those turns grew with it (a canned
// reply took half that growth away). A model server runs elsewhere; the
// fake stands in for its answers, not for its load.
type replay struct {
	mu      sync.Mutex
	on      bool
	answers map[string]*recording // by path
}

// recording is a reply as the fake wrote it.
type recording struct {
	http.ResponseWriter
	status int
	header http.Header
	body   bytes.Buffer
}

func (r *recording) WriteHeader(status int) {
	r.status, r.header = status, r.ResponseWriter.Header().Clone()
	r.ResponseWriter.WriteHeader(status)
}

func (r *recording) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.WriteHeader(http.StatusOK)
	}
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

func (r *recording) Flush() {
	if fl, ok := r.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

// start makes the next requests replayed (after the first on each path,
// which is recorded); stop ends it and forgets the recordings.
func (p *replay) start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.on, p.answers = true, map[string]*recording{}
}

func (p *replay) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.on, p.answers = false, nil
}

// serve answers r from its recording and reports true, or returns the
// writer to serve it through: one recording it when replay is on.
func (p *replay) serve(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.on {
		return w, false
	}
	if rec := p.answers[r.URL.Path]; rec != nil && rec.status == http.StatusOK {
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		w.Write(rec.body.Bytes())
		return w, true
	}
	rec := &recording{ResponseWriter: w}
	p.answers[r.URL.Path] = rec
	return rec, false
}
