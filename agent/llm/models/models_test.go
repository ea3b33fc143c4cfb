package models_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/models"
)

func TestBuiltin(t *testing.T) {
	for _, c := range []struct {
		id      string
		context int
		ok      bool
	}{
		{"claude-sonnet-4-5-20250929", 200_000, true},
		{"claude-opus-4-1", 200_000, true},
		{"gpt-4.1-mini", 1_047_576, true},
		{"gpt-5", 400_000, true},
		{"o4-mini-2025-04-16", 200_000, true},
		{"deepseek-chat", 128_000, true},
		{"Qwen/Qwen3-Coder-30B-A3B-Instruct", 262_144, true},
		{"qwen3:8b", 131_072, true},
		{"meta-llama/Llama-3.1-8B-Instruct", 131_072, true},
		{"llama3.1:8b", 131_072, true},
		{"gemma3:12b", 131_072, true},
		{"mistral-small-3.2", 131_072, true},
		{"us.anthropic.claude-sonnet-4-20250514-v1:0", 200_000, true}, // Bedrock's ids
		{"global.anthropic.claude-sonnet-4-5-20250929-v1:0", 200_000, true},
		{"anthropic.claude-opus-4-1-20250805-v1:0", 200_000, true},
		{"my-finetune", 0, false},
	} {
		l, ok := models.Builtin(c.id)
		if ok != c.ok || l.Context != c.context {
			t.Errorf("Builtin(%q) = %+v, %v; want context %d, %v", c.id, l, ok, c.context, c.ok)
		}
	}
}

func TestWindowsPrecedence(t *testing.T) {
	var notices []string
	w := &models.Windows{Current: "gpt-4.1", Env: 50_000,
		Config: map[string]int{"gpt-4.1": 90_000, "local": 12_000},
		Notice: func(m string) { notices = append(notices, m) }}
	w.Learn("served", 24_576)
	for _, c := range []struct {
		model string
		want  int
		src   models.Source
	}{
		{"gpt-4.1", 50_000, models.FromEnv},   // env wins over the file for the current model
		{"local", 12_000, models.FromConfig},  // env applies to the current model only
		{"served", 24_576, models.FromServer}, // discovered
		{"claude-haiku-4-5", 200_000, models.FromBuiltin},
		{"mystery", models.DefaultContext, models.FromFallback},
		{"mystery", models.DefaultContext, models.FromFallback},
	} {
		l, src := w.Lookup(c.model)
		if l.Context != c.want || src != c.src {
			t.Errorf("Lookup(%q) = %d from %s; want %d from %s", c.model, l.Context, src, c.want, c.src)
		}
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "mystery") || !strings.Contains(notices[0], "32768") {
		t.Errorf("notices = %q, want one about mystery and the default", notices)
	}
}

func TestDiscover(t *testing.T) {
	for _, style := range []llmtest.WindowStyle{llmtest.VLLM, llmtest.LlamaCpp, llmtest.Ollama, llmtest.LMStudio, llmtest.OpenRouter} {
		t.Run(string(style), func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.ReportWindow(style, "qwen3:8b", 40_960)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			l, err := models.Discover(ctx, nil, srv.BaseURL(llmtest.OpenAI), "", "qwen3:8b")
			// OpenRouter alone says how long one answer may be.
			wantOutput := 0
			if style == llmtest.OpenRouter {
				wantOutput = 16_384
			}
			if err != nil || l.Context != 40_960 || l.Output != wantOutput {
				t.Fatalf("Discover = %+v, %v; want 40960 and output %d", l, err, wantOutput)
			}
		})
	}
	t.Run("nothing reported", func(t *testing.T) {
		srv := llmtest.NewServer(t)
		l, err := models.Discover(context.Background(), nil, srv.BaseURL(llmtest.OpenAI), "", "gpt-5")
		if err == nil || l != (models.Limits{}) {
			t.Fatalf("Discover = %+v, %v; want an error", l, err)
		}
	})
}

func TestCost(t *testing.T) {
	p, ok := models.PriceOf("claude-sonnet-4-5")
	if !ok {
		t.Fatal("no price for claude-sonnet-4-5")
	}
	got := p.Cost(llm.Usage{InputTokens: 1_000_000, OutputTokens: 100_000, CacheReadTokens: 1_000_000, CacheWriteTokens: 1_000_000})
	if want := 3 + 1.5 + 0.3 + 3.75; got < want-1e-9 || got > want+1e-9 {
		t.Errorf("cost = %v, want %v", got, want)
	}
	if _, ok := models.PriceOf("qwen3:8b"); ok {
		t.Error("a local model has a price")
	}
	if p, _ := models.PriceOf("gpt-5-mini"); p.Input != 0.25 {
		t.Errorf("gpt-5-mini matched the gpt-5 row: %+v", p)
	}
}

func TestEstimatorCalibrates(t *testing.T) {
	req := &llm.Request{Model: "m", System: strings.Repeat("x", 4000),
		Messages: []llm.Message{llm.Text(llm.RoleUser, strings.Repeat("word ", 400))}}
	var e models.Estimator
	first := e.Estimate(req)
	if first < 1400 || first > 1600 {
		t.Fatalf("uncalibrated estimate %d, want about bytes/4 = 1500", first)
	}
	// The provider says the text is denser than four bytes a token.
	e.Observe(req, 2000)
	if got := e.Estimate(req); got < 1900 || got > 2100 {
		t.Errorf("calibrated estimate %d, want about 2000", got)
	}
	other := &llm.Request{Model: "other", System: req.System, Messages: req.Messages}
	if got := e.Estimate(other); got != first {
		t.Errorf("calibration leaked to another model: %d, want %d", got, first)
	}
}

// A vLLM started with --api-key answers /v1/models only with the key.
func TestDiscoverSendsKey(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sk-local" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		fmt.Fprint(w, `{"data":[{"id":"m","max_model_len":8192}]}`)
	}))
	defer hs.Close()
	if l, err := models.Discover(context.Background(), hs.Client(), hs.URL+"/v1", "sk-local", "m"); l.Context != 8192 {
		t.Errorf("with the key: %+v, %v", l, err)
	}
	if l, _ := models.Discover(context.Background(), hs.Client(), hs.URL+"/v1", "", "m"); l.Context != 0 {
		t.Errorf("without the key: %+v, want nothing", l)
	}
}

// A probe started off the start-up path (Settle) is waited for by a
// Lookup that needs a server's answer, runs once, and delays no Lookup the
// environment or config.json answers; without Settle the first Lookup
// runs it.
func TestWindowsProbe(t *testing.T) {
	release := make(chan struct{})
	runs := 0
	w := &models.Windows{Config: map[string]int{"local": 12_000}}
	w.Probe = func(ctx context.Context) {
		runs++
		<-release
		w.Learn("served", 24_576)
	}
	settled := make(chan struct{})
	go func() {
		defer close(settled)
		w.Settle(context.Background())
	}()
	if l, src := w.Lookup("local"); l.Context != 12_000 || src != models.FromConfig {
		t.Errorf("Lookup(local) = %d from %s while probing; want config.json's", l.Context, src)
	}
	looked := make(chan int)
	go func() { looked <- w.Window("served") }()
	select {
	case n := <-looked:
		t.Fatalf("Lookup answered %d before the probe was done", n)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if n := <-looked; n != 24_576 {
		t.Errorf("Lookup after the probe = %d, want the server's 24576", n)
	}
	<-settled
	w.Settle(context.Background())
	if runs != 1 {
		t.Errorf("the probe ran %d times, want once", runs)
	}

	lazy := &models.Windows{}
	lazy.Probe = func(context.Context) { lazy.Learn("served", 8_192) }
	if n := lazy.Window("served"); n != 8_192 {
		t.Errorf("Lookup without Settle = %d, want the probe's 8192", n)
	}
}
