package acp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/anthropic"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// acpToolSteps is how many tool calls one benchmarked prompt makes.
const acpToolSteps = 30

// BenchmarkToolStepsACP is agent.BenchmarkToolSteps through a whole
// in-process `tandem acp`: a prompt of acpToolSteps read_file/edit_file
// calls against a local workspace (a client without fs capabilities, so
// the disk answers), every update on its way to a client reading lines.
// It reports the wall time per step; a trace of it shows the hand-offs an
// update makes between the turn and the client.
func BenchmarkToolStepsACP(b *testing.B) {
	body := strings.Repeat("func handler(w http.ResponseWriter, r *http.Request) {\n\tserve(w, r)\n}\n\n", 15)
	srv := llmtest.NewServer(b)
	srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		k := 0
		for _, m := range r.Messages {
			for _, p := range m.Content {
				if p.Type == llm.PartToolResult {
					k++
				}
			}
		}
		switch {
		case k >= acpToolSteps:
			return llmtest.Reply{Text: []string{"done"}}
		case k%2 == 0:
			return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Args: `{"path":"main.go"}`}}}
		}
		return llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "edit_file", Args: fmt.Sprintf(`{"path":"main.go","old_string":"m%d ","new_string":"m%d "}`, k/2, k/2+1)}}}
	})
	prov := anthropic.New(anthropic.Options{APIKey: "k", BaseURL: srv.BaseURL(llmtest.Anthropic)})
	a := agent.New(agent.Config{Home: b.TempDir(), Model: "claude-sonnet-4-5", Provider: prov})
	defer a.Close(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { _ = Serve(context.Background(), inR, outW, Options{Agent: a, Version: "bench"}); outW.Close() }()
	defer func() { inW.Close(); io.Copy(io.Discard, outR) }()
	lines := bufio.NewReaderSize(outR, 1<<20)
	// call sends a request and reads until its response, which it returns.
	call := func(id, method, params string) string {
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
				return l
			}
		}
	}
	call("i", "initialize", `{"protocolVersion":1,"clientCapabilities":{}}`)
	dir := b.TempDir()
	path := filepath.Join(dir, "main.go")
	var wall time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// A session per prompt: the fake model counts the history's steps.
		b.StopTimer()
		if err := os.WriteFile(path, []byte("m0 \n"+body), 0o644); err != nil {
			b.Fatal(err)
		}
		l := call(fmt.Sprint("n", i), "session/new", fmt.Sprintf(`{"cwd":%q,"mcpServers":[]}`, dir))
		_, after, _ := strings.Cut(l, `"sessionId":"`)
		sid, _, _ := strings.Cut(after, `"`)
		call(fmt.Sprint("m", i), "session/set_mode", fmt.Sprintf(`{"sessionId":%q,"modeId":"full-auto"}`, sid))
		b.StartTimer()
		t0 := time.Now()
		call(fmt.Sprint("p", i), "session/prompt", fmt.Sprintf(`{"sessionId":%q,"prompt":[{"type":"text","text":"go"}]}`, sid))
		wall += time.Since(t0)
	}
	b.StopTimer()
	b.ReportMetric(float64(wall.Microseconds())/float64(b.N*acpToolSteps), "µs/step")
	if got, _ := os.ReadFile(path); !strings.HasPrefix(string(got), fmt.Sprintf("m%d ", acpToolSteps/2)) {
		b.Fatalf("the edits did not land: %.20q", got)
	}
}
