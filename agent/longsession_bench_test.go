package agent

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// BenchmarkLongSession measures one turn of a session whose history
// already holds n turns (a question and a ~170-byte answer each; 500 turns
// make an 84 KB request). own-ns/turn is tandem's own time (the median): the turn minus
// a bare HTTP POST of the very request body the turn sent to the same fake
// server. bench/turns.sh compares turn 500 with turn 10.
func BenchmarkLongSession(b *testing.B) {
	for _, n := range []int{10, 500} {
		b.Run(fmt.Sprintf("turn=%d", n), func(b *testing.B) { benchLongSession(b, n) })
	}
}

func benchLongSession(b *testing.B, n int) {
	srv := llmtest.Start()
	defer srv.Close()
	cfg := newBenchConfig(b, srv)
	cfg.Store = nil
	// A model whose window is known (200k tokens): an 84 KB history is far
	// from it, so no compaction request joins the turn.
	cfg.Model = "claude-sonnet-4-5-20250929"
	a := New(cfg)
	s, err := a.NewSession(context.Background(), SessionOptions{Cwd: b.TempDir(), Host: &testHost{}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	answer := strings.Repeat("The handler reads the request, checks it and answers. ", 3)
	var hist []llm.Message
	for i := range n {
		hist = append(hist, llm.Text(llm.RoleUser, fmt.Sprintf("question %d about the code", i)), llm.Text(llm.RoleAssistant, answer))
	}
	srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"ok"}} })
	ctx := context.Background()
	own := make([]time.Duration, 0, b.N)
	for i := 0; i < b.N; i++ {
		if err := s.do(ctx, func() { s.st.history = append([]llm.Message(nil), hist...) }); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if _, err := s.Prompt(ctx, prompt("go")); err != nil {
			b.Fatal(err)
		}
		turn := time.Since(start)
		reqs := srv.Requests()
		last := reqs[len(reqs)-1]
		start = time.Now()
		resp, err := http.Post(srv.URL+last.Path, "application/json", bytes.NewReader(last.Body))
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
