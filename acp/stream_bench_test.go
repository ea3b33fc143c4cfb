package acp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/proc"
	"github.com/tandemhq/tandem/internal/redact"
)

// BenchmarkStreaming streams a reply of streamChunks deltas through a whole
// in-process `tandem acp` (fake model over HTTP → provider → turn → outbox
// → JSON-RPC → a client reading lines) and, in the same run, through the
// provider alone: the floor. It reports tandem's rate as a share of the
// floor's (goal ≥ 0.8) and the CPU it adds per chunk (goal ≤ 10 µs).
func BenchmarkStreaming(b *testing.B) {
	const streamChunks = 5000
	text := make([]string, streamChunks)
	for i := range text {
		text[i] = "tok "
	}
	reply := llmtest.Reply{Text: text}
	srv := llmtest.NewServer(b)
	prov := anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.BaseURL(llmtest.Anthropic)})

	var floorWall, floorCPU, wall, cpu time.Duration
	req := &llm.Request{Model: "claude-sonnet-4-5", Messages: []llm.Message{llm.Text(llm.RoleUser, "go")}}
	for b.Loop() {
		srv.Enqueue(reply)
		c0, t0 := cpuTime(), time.Now()
		if _, err := prov.Stream(context.Background(), req, func(llm.Event) {}); err != nil {
			b.Fatal(err)
		}
		floorWall += time.Since(t0)
		floorCPU += cpuTime() - c0

		// Keys to hide, as production always has (one starts like the
		// chunks, so the stream's hold-back looks at every one).
		red := redact.New("sk-ant-api03-benchSECRETbenchSECRETbench", "ghp_benchSECRETbenchSECRETbenchSECRET01", "tok_benchSECRETbench")
		a := agent.New(agent.Config{Home: b.TempDir(), Model: "claude-sonnet-4-5", Provider: prov, Redact: red})
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		go func() { _ = Serve(context.Background(), inR, outW, Options{Agent: a, Version: "bench"}); outW.Close() }()
		lines := bufio.NewReaderSize(outR, 1<<20)
		call := func(id, method, params string) {
			fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%q,"method":%q,"params":%s}`+"\n", id, method, params)
			for {
				l, err := lines.ReadString('\n')
				if err != nil {
					b.Fatal(err)
				}
				if strings.HasPrefix(l, `{"jsonrpc":"2.0","id":"`+id+`"`) {
					if strings.Contains(l, `"error"`) {
						b.Fatal(l)
					}
					return
				}
			}
		}
		call("i", "initialize", `{"protocolVersion":1,"clientCapabilities":{}}`)
		dir := b.TempDir()
		fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":"n","method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`+"\n", dir)
		var sid string
		for sid == "" {
			l, err := lines.ReadString('\n')
			if err != nil {
				b.Fatal(err)
			}
			if _, after, ok := strings.Cut(l, `"sessionId":"`); ok && strings.HasPrefix(l, `{"jsonrpc":"2.0","id":"n"`) {
				sid, _, _ = strings.Cut(after, `"`)
			}
		}
		srv.Enqueue(reply)
		c0, t0 = cpuTime(), time.Now()
		call("p", "session/prompt", fmt.Sprintf(`{"sessionId":%q,"prompt":[{"type":"text","text":"go"}]}`, sid))
		wall += time.Since(t0)
		cpu += cpuTime() - c0
		inW.Close()
		io.Copy(io.Discard, outR)
		a.Close(context.Background())
	}
	n := float64(b.N * streamChunks)
	b.ReportMetric(float64(wall.Nanoseconds())/n, "ns/chunk")
	b.ReportMetric(float64(floorWall)/float64(wall), "x-fake-rate")
	b.ReportMetric(float64((cpu-floorCPU).Nanoseconds())/n/1000, "µs-cpu/chunk")
}

// cpuTime is the process's user and system CPU so far.
func cpuTime() time.Duration {
	d, _ := proc.SelfUsage()
	return d
}
