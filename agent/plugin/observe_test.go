package plugin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tandemhq/tandem/agent"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// afterAsk hears a permission prompt's outcome, and timelineRewind the
// conversation going back to a marker, with what it removed; both with
// permissions.events alone.
func TestAfterAskAndTimelineRewind(t *testing.T) {
	r := newRig(t)
	dir := pyPlugin(t, filepath.Join(r.home, "plugins"), "watch", map[string]any{"permissions": map[string]any{"events": true}})
	rec := newRecorder(t)
	enable(t, r.home, "watch", dir, map[string]any{"hooks": []string{"afterAsk", "timelineRewind"}, "recordTo": rec.addr})
	r.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Args: `{"path":"n.txt","content":"x"}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	s, h := r.session(t, agent.ModeCode)
	ctx := context.Background()
	must(t, s.Mark(ctx, "start"))
	prompt(t, s, "write")
	if len(h.asked) != 1 {
		t.Fatalf("asked %d times", len(h.asked))
	}
	if _, err := s.Rewind(ctx, "start"); err != nil {
		t.Fatal(err)
	}
	type call struct {
		Method string
		Params map[string]any
	}
	// Both are notifications: the rewind's comes last.
	rec.await("hooks/timelineRewind")
	var seen []call
	raw, _ := os.ReadFile(filepath.Join(r.home, "plugin-data", "watch", "calls.jsonl"))
	for _, line := range bytes.Split(raw, []byte("\n")) {
		var c call
		if json.Unmarshal(line, &c) == nil && (c.Method == "hooks/afterAsk" || c.Method == "hooks/timelineRewind") {
			seen = append(seen, c)
		}
	}
	if len(seen) != 2 || seen[0].Method != "hooks/afterAsk" || seen[1].Method != "hooks/timelineRewind" {
		t.Fatalf("observed %+v", seen)
	}
	if a := seen[0].Params; a["tool"] != "write_file" || a["outcome"] != "allowed" {
		t.Errorf("afterAsk: %v", a)
	}
	if rw := seen[1].Params; rw["marker"] != "start" || rw["removed"].(float64) < 3 {
		t.Errorf("timelineRewind: %v", rw)
	}
}
