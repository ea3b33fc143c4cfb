package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/store"
)

// toolSteps is how many tool calls one benchmarked turn makes: read_file
// and edit_file in turn, against one file of the workspace.
const toolSteps = 30

// toolStepFile is the file the steps read and edit: some 60 lines of code.
var toolStepFile = strings.Repeat("func handler(w http.ResponseWriter, r *http.Request) {\n\tserve(w, r)\n}\n\n", 15)

// BenchmarkToolSteps is one turn of toolSteps read_file/edit_file calls
// through the agent against a local workspace (the local host, full-auto
// mode, no store), the fake model in a child process so cpu-ns/op is
// tandem's alone. bench/toolstep.sh subtracts BenchmarkToolStepsFloor, the
// same exchanges through the provider alone, and divides by the steps.
func BenchmarkToolSteps(b *testing.B) { benchToolSteps(b, Config{}) }

// BenchmarkToolStepsStored is BenchmarkToolSteps with the session stored,
// as an editor's sessions are: every update and history message also goes
// to the session log.
func BenchmarkToolStepsStored(b *testing.B) {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	benchToolSteps(b, Config{Store: st})
}

func benchToolSteps(b *testing.B, cfg Config) {
	cfg.Provider, cfg.Model, cfg.Home = toolStepProvider(b), "claude-sonnet-4-5-20250929", b.TempDir()
	a := New(cfg)
	dir := b.TempDir()
	path := filepath.Join(dir, "main.go")
	s, err := a.NewSession(context.Background(), SessionOptions{Cwd: dir, Mode: ModeFullAuto, Host: &testHost{}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var used procUse
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := os.WriteFile(path, []byte("m0 \n"+toolStepFile), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := s.do(context.Background(), func() { s.hist.msgs = nil }); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		c := rusage()
		if _, err := s.Prompt(context.Background(), prompt("go")); err != nil {
			b.Fatal(err)
		}
		e := rusage()
		used.cpu += e.cpu - c.cpu
		used.sleeps += e.sleeps - c.sleeps
	}
	b.StopTimer()
	used.report(b)
	if got, _ := os.ReadFile(path); !strings.HasPrefix(string(got), fmt.Sprintf("m%d ", toolSteps/2)) {
		b.Fatalf("the edits did not land: %.20q", got)
	}
}

// BenchmarkToolStepsFloor sends BenchmarkToolSteps' requests through the
// provider alone: the same replies, a history growing by a tool result per
// step (the file's text for a read, a line for an edit).
func BenchmarkToolStepsFloor(b *testing.B) {
	benchToolStepsFloor(b, &llm.Request{Model: "m"}, func(k int) string {
		if k%2 == 0 {
			return toolStepFile
		}
		return "edited main.go"
	})
}

// BenchmarkToolStepsFloorSameHead is BenchmarkToolStepsFloor with the
// agent's own system prompt, tools and limits in every request and the
// agent's own tool results (a read's numbered lines, an edit's region), so
// the provider sends and the fake model reads as many bytes as the agent's
// requests carry: what is left is what the agent does around the exchange.
func BenchmarkToolStepsFloorSameHead(b *testing.B) {
	a := New(Config{Provider: toolStepProvider(b), Model: "claude-sonnet-4-5-20250929", Home: b.TempDir()})
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("m0 \n"+toolStepFile), 0o644); err != nil {
		b.Fatal(err)
	}
	s, err := a.NewSession(context.Background(), SessionOptions{Cwd: dir, Mode: ModeFullAuto, Host: &testHost{}})
	if err != nil {
		b.Fatal(err)
	}
	head := (&turnRun{s: s}).baseRequest()
	// One turn through the agent, untimed, gives the tool results it sends.
	if _, err := s.Prompt(context.Background(), prompt("go")); err != nil {
		b.Fatal(err)
	}
	var outs []string
	s.read(func() {
		for _, m := range s.hist.msgs {
			for _, p := range m.Content {
				if p.Type == llm.PartToolResult {
					outs = append(outs, p.Text)
				}
			}
		}
	})
	s.Close()
	if len(outs) != toolSteps {
		b.Fatalf("the agent's turn made %d tool results, want %d", len(outs), toolSteps)
	}
	benchToolStepsFloor(b, &llm.Request{Model: head.Model, System: head.System, Tools: head.Tools, MaxTokens: head.MaxTokens, Effort: head.Effort},
		func(k int) string { return outs[k] })
}

// benchToolStepsFloor runs the floor's turns, each request shaped as head,
// the kth tool result being result(k).
func benchToolStepsFloor(b *testing.B, head *llm.Request, result func(k int) string) {
	p := toolStepProvider(b)
	ctx := context.Background()
	c := rusage()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		msgs := []llm.Message{llm.Text(llm.RoleUser, "go")}
		for k := 0; ; k++ {
			req := *head
			req.Messages = msgs
			resp, err := p.Stream(ctx, &req, func(llm.Event) {})
			if err != nil {
				b.Fatal(err)
			}
			calls := resp.ToolCalls()
			if len(calls) == 0 {
				break
			}
			msgs = append(msgs, resp.Message, llm.Message{Role: llm.RoleUser, Content: []llm.Part{{Type: llm.PartToolResult, ToolCallID: calls[0].ToolCallID, ToolName: calls[0].ToolName, Text: result(k)}}})
		}
	}
	e := rusage()
	procUse{cpu: e.cpu - c.cpu, sleeps: e.sleeps - c.sleeps}.report(b)
}

// report gives u per turn: CPU time, and thread sleeps per tool step.
func (u procUse) report(b *testing.B) {
	b.ReportMetric(float64(u.cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(u.sleeps)/float64(b.N)/toolSteps, "sleeps/step")
}

// toolStepProvider talks to the tool-step fake model in a child process,
// so this process's CPU time is the client's alone.
func toolStepProvider(b *testing.B) llm.Provider {
	return anthropic.New(anthropic.Options{APIKey: "test-key", BaseURL: startToolStepServer(b)})
}
