package llmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
)

// RunRecorded replays every dir/*.sse file (a response stream as a server
// sent it) through the provider and compares the assembled response and
// the event sequence with the .json file beside it. With update set it
// rewrites the .json files instead; review the diff before committing.
func RunRecorded(t *testing.T, format Format, newProvider func(ProviderConfig) llm.Provider, dir string, update bool) {
	files, err := filepath.Glob(filepath.Join(dir, "*.sse"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .sse files in %s (%v)", dir, err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".sse")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			srv := NewServer(t)
			srv.Enqueue(Reply{Raw: string(raw)})
			p := newProvider(ProviderConfig{BaseURL: srv.BaseURL(format)})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			rec := &Recorder{}
			resp, err := p.Stream(ctx, &llm.Request{Model: "m", Messages: []llm.Message{llm.Text(llm.RoleUser, "q")}}, rec.Emit)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(struct {
				Response *llm.Response
				Events   []string
			}{resp, summarize(rec.Events())}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(file, ".sse") + ".json"
			if update {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(bytes.TrimSpace(want), got) {
				t.Errorf("%s differs from the assembled response:\n%s", golden, got)
			}
		})
	}
}

// summarize renders events one per line, compactly, for golden files.
func summarize(events []llm.Event) []string {
	var out []string
	for _, e := range events {
		s := string(e.Type)
		switch e.Type {
		case llm.EventText, llm.EventReasoning:
			s += " " + jsonQuote(e.Text)
		case llm.EventToolCallStart:
			s += " " + e.ToolCallID + " " + e.ToolName
		case llm.EventToolCallDelta:
			s += " " + e.ToolCallID + " " + jsonQuote(e.Text)
		case llm.EventToolCallEnd:
			s += " " + e.ToolCallID + " " + string(e.Input)
		case llm.EventUsage:
			b, _ := json.Marshal(e.Usage)
			s += " " + string(b)
		case llm.EventStop:
			s += " " + string(e.StopReason)
		}
		out = append(out, s)
	}
	return out
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
