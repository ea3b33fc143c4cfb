package agent

import (
	"context"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/models"
)

// TestRequestKeepsToTheListedOutputLimit: a model whose provider listing
// states an output limit is never asked for more (config.json maxTokens
// above it is capped), and one the built-in table knows no output limit
// of asks for the listed limit rather than the provider's own default.
func TestRequestKeepsToTheListedOutputLimit(t *testing.T) {
	for _, c := range []struct {
		name       string
		configured int
		want       int
	}{{"capped", 16_000, 4096}, {"defaulted", 0, 4096}, {"kept", 2000, 2000}} {
		t.Run(c.name, func(t *testing.T) {
			w := &models.Windows{}
			w.LearnLimits("local-coder", models.Limits{Context: 32_768, Output: 4096})
			f := newFixture(t, func(cfg *Config) {
				cfg.Model, cfg.MaxTokens, cfg.Windows = "local-coder", c.configured, w
			})
			s, _, _ := f.session(ModeCode, nil)
			f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
			if _, err := s.Prompt(context.Background(), prompt("hi")); err != nil {
				t.Fatal(err)
			}
			reqs := f.srv.Requests()
			if len(reqs) != 1 || reqs[0].MaxTokens != c.want {
				t.Fatalf("max_tokens sent = %+v, want %d", maxTokensOf(reqs), c.want)
			}
		})
	}
}

func maxTokensOf(reqs []*llmtest.Request) []int {
	out := make([]int, len(reqs))
	for i, r := range reqs {
		out[i] = r.MaxTokens
	}
	return out
}
