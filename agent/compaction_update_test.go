package agent

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/tandemhq/tandem/agent/store"
)

// A compaction_update and a tool call's name survive the log's JSON, and
// ToolCallForm shows a compaction as the tool call clients without
// compaction entities get.
func TestCompactionUpdateRoundTripAndToolCallForm(t *testing.T) {
	for _, u := range []Update{
		{Type: CompactionUpdated, Compaction: &Compaction{ID: "compact-1", Status: CompactionRunning}},
		{Type: CompactionUpdated, Compaction: &Compaction{ID: "compact-1", Status: CompactionDone, Description: "Compacted.", Summary: "## Goal"}},
		{Type: CompactionUpdated, Compaction: &Compaction{ID: "compact-1", Status: CompactionFailed, Error: "Compaction failed: boom"}},
		{Type: ToolCallStarted, Tool: &ToolCall{ID: "c1", Title: "Read a.go", Name: "read_file", Kind: "read", Status: ToolPending}},
	} {
		b, err := json.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		var back Update
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, u) {
			t.Errorf("%s read back as %+v (%v)", b, back, err)
		}
	}
	b, _ := json.Marshal(Update{Type: CompactionUpdated, Compaction: &Compaction{ID: "x", Status: CompactionDone, Description: "d", Summary: "s"}})
	if want := `{"sessionUpdate":"compaction_update","status":"completed","compactionId":"x","summary":[{"type":"text","text":"d"},{"type":"text","text":"s"}]}`; string(b) != want {
		t.Errorf("wire form\n%s\nwant\n%s", b, want)
	}

	start := Update{Type: CompactionUpdated, Compaction: &Compaction{ID: "x", Status: CompactionRunning}}.ToolCallForm()
	done := Update{Type: CompactionUpdated, Compaction: &Compaction{ID: "x", Status: CompactionDone, Description: "d", Summary: "s"}}.ToolCallForm()
	cancelled := Update{Type: CompactionUpdated, Compaction: &Compaction{ID: "x", Status: CompactionCancelled}}.ToolCallForm()
	if start.Type != ToolCallStarted || start.Tool.Title != compactTitle || start.Tool.Status != ToolInProgress ||
		done.Type != ToolCallUpdated || done.Tool.Status != ToolCompleted || done.Tool.Content[0].Content.Text != "d" ||
		cancelled.Tool.Status != ToolFailed || cancelled.Tool.Content[0].Content.Text != "Compaction cancelled." {
		t.Errorf("tool call forms: %+v / %+v / %+v", start.Tool, done.Tool, cancelled.Tool)
	}
	if u := (Update{Type: PlanUpdated}); !reflect.DeepEqual(u.ToolCallForm(), u) {
		t.Error("ToolCallForm changed an update that is no compaction")
	}
}

// A compaction cut off by a crash (its in_progress update logged, no end)
// is replayed as failed, interrupted, and the failure is logged, so the
// next load shows it ended too.
func TestLoadEndsAnInterruptedCompaction(t *testing.T) {
	f := newFixture(t)
	s, _, _ := f.session(ModeCode, nil)
	id := s.ID()
	s.Close()
	l, err := f.agent.cfg.Store.OpenLog(id)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(Update{Type: CompactionUpdated, Compaction: &Compaction{ID: "compact-cut", Status: CompactionRunning}})
	if err := l.Append(store.Record{Kind: recUpdate, Data: b}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	for range 2 {
		h := &testHost{}
		s2, err := New(f.agent.cfg).LoadSession(context.Background(), SessionOptions{ID: id, Host: h})
		if err != nil {
			t.Fatal(err)
		}
		var ended []CompactionStatus
		for _, u := range h.snapshot() {
			if c := u.Compaction; c != nil && c.ID == "compact-cut" && c.Status != CompactionRunning {
				ended = append(ended, c.Status)
				if c.Error != Interrupted {
					t.Errorf("interrupted compaction's error %q", c.Error)
				}
			}
		}
		if len(ended) != 1 || ended[0] != CompactionFailed {
			t.Errorf("replay ended the cut compaction %v, want once, failed", ended)
		}
		s2.Close()
	}
}
