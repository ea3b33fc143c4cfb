package lsp_test

import (
	"encoding/json"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestPromptReportsUsage: a tandem/update carries the usage_update after
// the model request, and the tandem/prompt result the turn's tokens.
func TestPromptReportsUsage(t *testing.T) {
	t.Parallel()
	u := llm.Usage{InputTokens: 100, OutputTokens: 10, CacheReadTokens: 900}
	f := newFixture(t, nil, "", llmtest.Reply{Text: []string{"hi"}, Usage: &u})
	_, ch := f.c.start("tandem/prompt", map[string]any{"sessionId": f.session,
		"prompt": []map[string]string{{"type": "text", "text": "hello"}}})
	res, rerr := f.c.await("tandem/prompt", ch)
	if rerr != nil {
		t.Fatalf("prompt: %v", rerr)
	}
	var r struct {
		Usage struct {
			InputTokens, OutputTokens, TotalTokens, CachedReadTokens int
			Cost                                                     float64
		}
	}
	json.Unmarshal(res, &r)
	if got := r.Usage; got.InputTokens != 1000 || got.OutputTokens != 10 || got.TotalTokens != 1010 || got.CachedReadTokens != 900 {
		t.Errorf("prompt result usage = %s", res)
	}
	var notes []map[string]any
	for _, m := range f.c.messages() {
		if m.Method != "tandem/update" {
			continue
		}
		var p struct{ Update map[string]any }
		json.Unmarshal(m.Params, &p)
		if p.Update["sessionUpdate"] == "usage_update" {
			notes = append(notes, p.Update)
		}
	}
	if len(notes) != 1 || notes[0]["used"] != 1010.0 || notes[0]["size"].(float64) <= 0 {
		t.Errorf("usage_update notes = %v, want one with used 1010 and a window", notes)
	}
}
