package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/compact"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestCompactCommand: "/compact FOCUS" through tandem/prompt compacts the
// session: the client's progress says "Compacting conversation…", a
// tandem/update usage_update follows, the compaction is a tool call in
// tandem/update (never ACP's compaction_update), and the summary request
// carries the focus.
func TestCompactCommand(t *testing.T) {
	t.Parallel()
	caps := map[string]any{"window": map[string]any{"workDoneProgress": true}}
	f := newFixture(t, caps, "", llmtest.Reply{Text: []string{"first answer"}}, llmtest.Reply{Text: []string{"the summary"}})
	f.c.onRequest(func(method string, _ json.RawMessage) (any, *rpcError) {
		if method == "window/workDoneProgress/create" {
			return nil, nil
		}
		return nil, &rpcError{Code: -32601, Message: method}
	})
	for _, text := range []string{"hello", "/compact the greeting"} {
		_, ch := f.c.start("tandem/prompt", map[string]any{"sessionId": f.session,
			"prompt": []map[string]string{{"type": "text", "text": text}}})
		if res, rerr := f.c.await("tandem/prompt", ch); rerr != nil || !strings.Contains(string(res), `"end_turn"`) {
			t.Fatalf("%s: %s %v", text, res, rerr)
		}
	}
	reqs := f.model.Requests()
	if len(reqs) != 2 || reqs[1].System != compact.SummarySystem || !strings.Contains(reqs[1].LastUserText(), "the greeting") {
		t.Fatalf("model requests: %d, the last not a summary with the focus", len(reqs))
	}
	progressAt, usageAt, shownAsCall := -1, -1, false
	for i, m := range f.c.messages() {
		switch m.Method {
		case "$/progress":
			if strings.Contains(string(m.Params), "Compacting conversation…") {
				progressAt = i
			}
		case "tandem/update":
			if progressAt >= 0 && strings.Contains(string(m.Params), `"usage_update"`) {
				usageAt = i
			}
			// LSP has no compaction entity: it is a tool call here.
			if strings.Contains(string(m.Params), `"compaction_update"`) {
				t.Errorf("an LSP client got ACP's compaction_update: %s", m.Params)
			}
			if strings.Contains(string(m.Params), `"tool_call"`) && strings.Contains(string(m.Params), "Compacting conversation…") {
				shownAsCall = true
			}
		}
	}
	if progressAt < 0 || usageAt < 0 || !shownAsCall {
		t.Errorf("progress with the compaction at %d, usage_update after it at %d, shown as a tool call %v", progressAt, usageAt, shownAsCall)
	}
}
