package agent

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// A session's edits of an existing file exchange it with a spare kept
// under $TANDEM_HOME: two edits bring the file back to its own inode (a
// rename would have made two new ones), the spare is empty and never in
// the workspace, and closing the session removes it.
func TestSessionEditsByExchange(t *testing.T) {
	f := newFixture(t)
	s, _, dir := editSyncSession(t, f, map[string]string{"main.go": "a\n"})
	p := filepath.Join(dir, "main.go")
	ino := func() uint64 {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Sys().(*syscall.Stat_t).Ino
	}
	before := ino()
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "edit_file", `{"path":"main.go","old_string":"a","new_string":"b"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c2", "edit_file", `{"path":"main.go","old_string":"b","new_string":"c"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("edit")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "c\n" {
		t.Fatalf("main.go = %q, want both edits", got)
	}
	if after := ino(); after != before {
		t.Errorf("main.go went from inode %d to %d in two edits; exchanged with a spare it comes back to its own", before, after)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("the workspace holds %d entries, want only main.go", len(es))
	}
	spares := filepath.Join(f.home, "spares")
	// The old content is emptied out of the spare just after the edit
	// returns, by a goroutine of the session's Spares.
	var found map[string]int64
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		found = map[string]int64{}
		filepath.WalkDir(spares, func(q string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				if fi, err := e.Info(); err == nil {
					found[q] = fi.Size()
				}
			}
			return nil
		})
		if len(found) == 1 && slices.Equal(slices.Collect(maps.Values(found)), []int64{0}) || time.Now().After(deadline) {
			break
		}
	}
	if len(found) != 1 || slices.Collect(maps.Values(found))[0] != 0 {
		t.Errorf("spares under the home: %v, want the session's one, emptied", found)
	}
	s.Close()
	if es, err := os.ReadDir(spares); err != nil || len(es) != 0 {
		t.Errorf("after Close the spares directory holds %v (%v)", es, err)
	}
}
