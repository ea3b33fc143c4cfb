package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/models"
	"github.com/tandemhq/tandem/agent/llm/openai"
)

// believing makes the agent believe model's window is tokens (as
// TANDEM_CONTEXT_WINDOW would) and keep learned limits in its home.
func believing(srv *llmtest.Server, f llmtest.Format, tokens int) func(*Config) {
	return func(c *Config) {
		c.Model = "local-model"
		c.Windows = &models.Windows{Env: tokens, Endpoint: models.Endpoint(srv.BaseURL(f)),
			Limits: &models.LimitFile{Path: filepath.Join(c.Home, models.LimitsFileName)}}
		if f == llmtest.OpenAI {
			c.Provider = openai.New(openai.Options{BaseURL: srv.BaseURL(f), Transport: noRetryWait})
		}
	}
}

var noRetryWait = llm.Transport{Retry: llm.RetryPolicy{Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}}

// refused counts the requests the server's context limit refused; the
// attempts of one request (Ollama's 500 is retried) count once.
func refused(srv *llmtest.Server) int {
	bodies := map[string]bool{}
	for _, r := range srv.Requests() {
		if r.Refused {
			bodies[string(r.Body)] = true
		}
	}
	return len(bodies)
}

// readAround runs twenty turns, each reading one of bigFiles(5).
func readAround(t *testing.T, s *Session, label string) {
	t.Helper()
	for i := range 20 {
		reason, err := s.Prompt(context.Background(), prompt(fmt.Sprintf("%s %d: read big%d.go", label, i, i%5)))
		if err != nil || reason != StopEndTurn {
			t.Fatalf("%s %d: %q, %v", label, i, reason, err)
		}
	}
}

// limitNotices are the notices telling the user a server's limit.
func limitNotices(h *testHost) []string {
	var out []string
	for _, u := range h.snapshot() {
		if u.Type == AgentMessageChunk && strings.Contains(u.Chunk.Text, "[tandem]") && strings.Contains(u.Chunk.Text, "tandem will keep requests under that") {
			out = append(out, u.Chunk.Text)
		}
	}
	return out
}

// A session that believes a 200k window, against a server that takes 16k
// (Ollama or llama.cpp with a small context, a proxy with its own limit),
// recovers from the first refusal: it learns the limit from it, compacts to
// fit and the retry succeeds; the turns after it never overflow, the user
// is told once, and a new agent on the same home (a new process) starts
// from the limit without a refusal or a notice. Each server's own refusal
// body, over real HTTP.
func TestOverflowLearnsTheServersLimit(t *testing.T) {
	const limit = 16_000
	for _, c := range []struct {
		name  string
		f     llmtest.Format
		style llmtest.WindowStyle
	}{
		{"anthropic", llmtest.Anthropic, ""},
		{"openai", llmtest.OpenAI, ""},
		{"vllm", llmtest.OpenAI, llmtest.VLLM},
		{"llama.cpp", llmtest.OpenAI, llmtest.LlamaCpp},
		{"ollama", llmtest.OpenAI, llmtest.Ollama},
		{"proxy", llmtest.Anthropic, llmtest.Proxy},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.LimitContext(c.style, limit)
			cfg := newBenchConfig(t, srv)
			believing(srv, c.f, 200_000)(&cfg)
			w := &windowed{}
			w.serve(srv, readThenAnswer)
			files := bigFiles(5)

			f := &fixture{t: t, srv: srv, agent: New(cfg), home: cfg.Home, store: cfg.Store}
			s, h, _ := f.session(ModeCode, files)
			readAround(t, s, "turn")
			if n := refused(srv); n != 1 {
				t.Errorf("%d requests refused, want the one that taught the limit", n)
			}
			notices := limitNotices(h)
			if len(notices) != 1 || !strings.Contains(notices[0], "local-model") || !strings.Contains(notices[0], srv.URL) ||
				!strings.Contains(notices[0], models.LimitsFileName) {
				t.Errorf("notices %q, want one naming the server, the model and where it is kept", notices)
			}
			checkCompactionShown(t, h)
			if l := w.largest.Load(); l > limit {
				t.Errorf("largest request served %d tokens, over the limit", l)
			}

			// A new process: a new agent on the same home, the same belief.
			before := len(srv.Requests())
			cfg2 := cfg
			believing(srv, c.f, 200_000)(&cfg2)
			f2 := &fixture{t: t, srv: srv, agent: New(cfg2), home: cfg2.Home, store: cfg2.Store}
			s2, h2, _ := f2.session(ModeCode, files)
			readAround(t, s2, "new agent's turn")
			for _, r := range srv.Requests()[before:] {
				if r.Refused {
					t.Errorf("the new agent's request %d was refused: it did not start from the learned limit", r.N)
				}
			}
			if n := len(limitNotices(h2)); n != 0 {
				t.Errorf("the new agent told the limit %d times again", n)
			}
			var sizes []int
			for _, u := range h2.snapshot() {
				if u.Type == UsageUpdated {
					sizes = append(sizes, u.Usage.Size)
				}
			}
			// Ollama states only the excess, a proxy nothing: the limit
			// is then the refused request's size as tandem estimated it
			// (less the excess), an upper bound a little over the limit.
			if len(sizes) == 0 || sizes[len(sizes)-1] > limit+limit/10 {
				t.Errorf("the editor is shown windows %v, want the learned limit", sizes)
			}
		})
	}
}
