package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/models"
)

// history150k is about 150,000 tokens by the estimator's default ratio:
// a hundred exchanges, each reading a 6 KB file.
func history150k() []llm.Message {
	out := strings.Repeat("func example() int { return 42 } // a line of code\n", 118) // ~6 KB
	var h []llm.Message
	for i := range 100 {
		id := fmt.Sprintf("c%d", i)
		h = append(h,
			llm.Text(llm.RoleUser, fmt.Sprintf("please read file%d.go and tell me what it does", i)),
			llm.Message{Role: llm.RoleAssistant, Content: []llm.Part{{Type: llm.PartToolUse, ToolCallID: id, ToolName: "read_file", Input: json.RawMessage(fmt.Sprintf(`{"path":"file%d.go"}`, i))}}},
			llm.Message{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartToolResult, ToolCallID: id, ToolName: "read_file", Text: out}}},
			llm.Text(llm.RoleAssistant, fmt.Sprintf("file%d.go defines example, which returns 42.", i)),
		)
	}
	return h
}

// BenchmarkCompaction150k measures /compact on a 150k-token history: the
// transcript, the summary requests over loopback HTTP to a fake model that
// answers at once, the record and the instructions. The model's own time
// is not in it. "200k" fits the history in one window; "32k" is a session
// over its window, summarised in pieces. "auto-stubs" is the automatic
// compaction before a request, which stubbing alone settles.
func BenchmarkCompaction150k(b *testing.B) {
	for _, c := range []struct {
		name    string
		window  int
		command string
	}{
		{"summary-200k-window", 200_000, "/compact"},
		{"summary-32k-window", 32_000, "/compact"},
		{"auto-stubs-200k-window", 200_000, "go on"},
	} {
		b.Run(c.name, func(b *testing.B) {
			srv := llmtest.Start()
			defer srv.Close()
			cfg := newBenchConfig(b, srv)
			cfg.Model = "bench-model"
			cfg.Windows = &models.Windows{Config: map[string]int{"bench-model": c.window}}
			cfg.CompactAt = 0.7
			a := New(cfg)
			s, err := a.NewSession(context.Background(), SessionOptions{Cwd: b.TempDir(), Host: &testHost{}})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			var summaries int
			srv.Handle(func(r *llmtest.Request) llmtest.Reply {
				if r.System == compact.SummarySystem {
					summaries++ // one request at a time
					return llmtest.Reply{Text: []string{"## Goal and constraints\nRead the files.\n## Files\nfile0.go … file99.go define example."}}
				}
				return llmtest.Reply{Text: []string{"ok"}}
			})
			h := history150k()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if err := s.do(context.Background(), func() { s.hist.msgs = h }); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := s.Prompt(context.Background(), prompt(c.command)); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(summaries)/float64(b.N), "summaries/op")
		})
	}
}
