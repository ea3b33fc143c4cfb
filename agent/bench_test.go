package agent

import (
	"context"
	"runtime"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// BenchmarkToolRoundTrip measures one tool round trip through the agent: a
// streamed model response with a tool call, the tool run, and the next
// request carrying the result, whose reply ends the turn. The fake server
// answers over loopback HTTP, so ns/op includes two HTTP exchanges. The
// store is off: turn-boundary fsyncs measure the disk, not the agent.
func BenchmarkToolRoundTrip(b *testing.B) {
	srv := llmtest.Start()
	defer srv.Close()
	cfg := newBenchConfig(b, srv)
	cfg.Store = nil
	a := New(cfg)
	s, err := a.NewSession(context.Background(), SessionOptions{Cwd: b.TempDir(), Host: &testHost{}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		if r.LastUserText() == "go" {
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "update_plan", Args: `{"plan":[{"content":"x","status":"pending"}]}`}}}
		}
		return llmtest.Reply{Text: []string{"ok"}}
	})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Each op starts from an empty history, so the figure does not
		// grow with the number of iterations.
		if err := s.do(context.Background(), func() { s.hist.msgs = nil }); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Prompt(context.Background(), prompt("go")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIdleSession reports the heap an idle session holds.
func BenchmarkIdleSession(b *testing.B) {
	srv := llmtest.Start()
	defer srv.Close()
	a := New(newBenchConfig(b, srv))
	dir := b.TempDir()
	const n = 200
	var before, after runtime.MemStats
	for i := 0; i < b.N; i++ {
		runtime.GC()
		runtime.ReadMemStats(&before)
		sessions := make([]*Session, n)
		for j := range sessions {
			s, err := a.NewSession(context.Background(), SessionOptions{Cwd: dir, Host: &testHost{}})
			if err != nil {
				b.Fatal(err)
			}
			sessions[j] = s
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "heap-B/session")
		for _, s := range sessions {
			s.Close()
		}
	}
}

// BenchmarkProviderOnly is BenchmarkToolRoundTrip without the agent: the
// same two streamed exchanges through the provider alone. The difference
// between the two is the agent's own overhead per tool round trip.
func BenchmarkProviderOnly(b *testing.B) {
	srv := llmtest.Start()
	defer srv.Close()
	p := newBenchConfig(b, srv).Provider
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		if r.LastUserText() == "go" {
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "update_plan", Args: `{"plan":[{"content":"x","status":"pending"}]}`}}}
		}
		return llmtest.Reply{Text: []string{"ok"}}
	})
	user := llm.Text(llm.RoleUser, "go")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		resp, err := p.Stream(context.Background(), &llm.Request{Model: "m", Messages: []llm.Message{user}}, func(llm.Event) {})
		if err != nil {
			b.Fatal(err)
		}
		calls := resp.ToolCalls()
		result := llm.Message{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartToolResult, ToolCallID: calls[0].ToolCallID, Text: "ok"}}}
		if _, err := p.Stream(context.Background(), &llm.Request{Model: "m", Messages: []llm.Message{user, resp.Message, result}}, func(llm.Event) {}); err != nil {
			b.Fatal(err)
		}
	}
}
