package agent

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// replayServer answers requests with streams recorded from the fake
// model, in turn (one stream: that one every time), reading the request
// body without decoding it: its work per request grows with the body
// only as far as reading it, so the long benchmarks measure tandem and
// not the fake's JSON decoding (or the garbage that decoding leaves for
// tandem's collector), and it keeps no record of requests.
type replayServer struct {
	*httptest.Server
	contentType string
	replies     [][]byte
	served      atomic.Int64
	keep        bool // keep the last request body in last
	lastLen     atomic.Int64

	mu   sync.Mutex   // guards last
	last bytes.Buffer // the last request body, when kept (reused: no garbage per request)
}

// newReplayServer records the fake model's answer of benchAnswer in
// format f and serves it; keep keeps the last request's body.
func newReplayServer(b *testing.B, f llmtest.Format, keep bool) *replayServer {
	return newScriptServer(b, f, keep, llmtest.Reply{Text: []string{benchAnswer}})
}

// newScriptServer records the fake model's answers script in format f and
// serves them in turn, from the first again after the last.
func newScriptServer(b *testing.B, f llmtest.Format, keep bool, script ...llmtest.Reply) *replayServer {
	fake := llmtest.Start()
	defer fake.Close()
	var next atomic.Int64
	fake.Handle(func(*llmtest.Request) llmtest.Reply { return script[next.Add(1)-1] })
	path, body := "/v1/messages", `{"model":"m","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"q"}]}`
	if f == llmtest.OpenAI {
		path, body = "/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"q"}]}`
	}
	r := &replayServer{keep: keep}
	for range script {
		resp, err := http.Post(fake.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		reply, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("recording the fake's reply: %v %s %s", err, resp.Status, reply)
		}
		r.contentType = resp.Header.Get("Content-Type")
		r.replies = append(r.replies, reply)
	}
	r.Server = httptest.NewServer(r)
	b.Cleanup(r.Close)
	return r
}

// lastBody copies the last request body into dst.
func (r *replayServer) lastBody(dst []byte) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append(dst[:0], r.last.Bytes()...)
}

func (r *replayServer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if r.keep {
		r.mu.Lock()
		r.last.Reset()
		n, err := r.last.ReadFrom(req.Body)
		r.mu.Unlock()
		if err != nil {
			return
		}
		r.lastLen.Store(n)
	} else {
		n, err := io.Copy(io.Discard, req.Body)
		if err != nil {
			return
		}
		r.lastLen.Store(n)
	}
	w.Header().Set("Content-Type", r.contentType)
	w.Write(r.replies[(r.served.Add(1)-1)%int64(len(r.replies))])
}
