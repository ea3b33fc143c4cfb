package agent

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/openai"
	"github.com/tandemhq/tandem/agent/store"
)

// benchProviders are the wire formats the long-session benchmarks run
// against, each with a model whose window is known and large: a 500-turn
// history is far from it, so no compaction request joins a turn.
var benchProviders = []struct {
	format llmtest.Format
	model  string
	path   string
	new    func(url string) llm.Provider
}{
	{llmtest.Anthropic, "claude-sonnet-4-5-20250929", "/v1/messages", func(url string) llm.Provider {
		return anthropic.New(anthropic.Options{APIKey: "test-key", BaseURL: url, Transport: llm.Transport{Retry: llm.RetryPolicy{MaxAttempts: 1}}})
	}},
	{llmtest.OpenAI, "gpt-4.1", "/v1/chat/completions", func(url string) llm.Provider {
		return openai.New(openai.Options{BaseURL: url + "/v1", Transport: llm.Transport{Retry: llm.RetryPolicy{MaxAttempts: 1}}})
	}},
}

// benchAnswer is every turn's answer; with its question a turn adds
// about 200 bytes of text to the history.
var benchAnswer = strings.Repeat("The handler reads the request, checks it and answers. ", 3)

// newLongSession opens a session on a server answering every request
// with benchAnswer in the wire format of benchProviders[provider].
func newLongSession(b *testing.B, provider int, withStore bool) (*Session, *replayServer) {
	srv := newReplayServer(b, benchProviders[provider].format, !withStore)
	return newBenchSession(b, provider, srv, withStore, b.TempDir()), srv
}

// newBenchSession opens a session in cwd on srv, a server speaking the
// wire format of benchProviders[provider].
func newBenchSession(b *testing.B, provider int, srv *replayServer, withStore bool, cwd string) *Session {
	p := benchProviders[provider]
	cfg := Config{Provider: p.new(srv.URL), Model: p.model, Home: b.TempDir()}
	if withStore {
		st, err := store.Open(filepath.Join(cfg.Home, "sessions"))
		if err != nil {
			b.Fatal(err)
		}
		cfg.Store = st
	}
	s, err := New(cfg).NewSession(context.Background(), SessionOptions{Cwd: cwd, Host: &discardHost{}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// discardHost drops updates, so a long benchmark keeps none of them.
type discardHost struct{ testHost }

func (*discardHost) Send(Update) {}

// BenchmarkLongSession measures one turn of a session whose history
// already holds n turns (a question and a ~170-byte answer each; 500 turns
// make an 84 KB request), for each wire format. own-ns/turn is tandem's
// own time (the median): the turn minus a bare HTTP POST of the very
// request body the turn sent to the same fake server. bench/turns.sh
// compares turn 500 with turn 10.
func BenchmarkLongSession(b *testing.B) {
	for i, p := range benchProviders {
		for _, n := range []int{10, 500} {
			b.Run(fmt.Sprintf("provider=%s/turn=%d", p.format, n), func(b *testing.B) { benchLongSession(b, i, n) })
		}
	}
}

func benchLongSession(b *testing.B, provider, n int) {
	s, srv := newLongSession(b, provider, false)
	var hist []llm.Message
	for i := range n {
		hist = append(hist, llm.Text(llm.RoleUser, fmt.Sprintf("question %d about the code", i)), llm.Text(llm.RoleAssistant, benchAnswer))
	}
	ctx := context.Background()
	own := make([]time.Duration, 0, b.N)
	// Reused between turns, so the benchmark's own garbage does not grow
	// with the history and make the collector run during the turns.
	var body []byte
	reset := make([]llm.Message, 0, len(hist)+8)
	for i := 0; i < b.N; i++ {
		if err := s.do(ctx, func() { s.hist.msgs = append(reset[:0], hist...) }); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if _, err := s.Prompt(ctx, prompt("go")); err != nil {
			b.Fatal(err)
		}
		turn := time.Since(start)
		body = srv.lastBody(body)
		start = time.Now()
		resp, err := http.Post(srv.URL+benchProviders[provider].path, "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		own = append(own, turn-time.Since(start))
	}
	// The median, not the mean: on a busy machine a few turns wait for a
	// CPU far longer than the work takes.
	slices.Sort(own)
	b.ReportMetric(float64(own[len(own)/2].Nanoseconds()), "own-ns/turn")
}
