package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/atomicfile"
)

// batchHost records, for each edit, the sync batch its ctx carried and
// what that batch held once the edit was applied.
type batchHost struct {
	*testHost
	mu      sync.Mutex
	batches []*atomicfile.Batch
	pending [][]string
}

func (h *batchHost) ApplyEdit(ctx context.Context, e edits.FileEdit) (edits.Result, error) {
	res, err := h.testHost.ApplyEdit(ctx, e)
	b := atomicfile.BatchFrom(ctx)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.batches = append(h.batches, b)
	if b != nil {
		h.pending = append(h.pending, b.Pending())
	}
	return res, err
}

func editSyncSession(t *testing.T, f *fixture, files map[string]string) (*Session, *batchHost, string) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := &batchHost{testHost: &testHost{}}
	s, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: dir, Mode: ModeFullAuto, Host: h})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, h, dir
}

// A turn's edits are written at once but synced together when the turn
// ends, right after its answer: each edit waits for no fsync, and Close
// waits for the sync.
func TestTurnSyncsItsEditsWhenItEnds(t *testing.T) {
	f := newFixture(t)
	s, h, dir := editSyncSession(t, f, map[string]string{"main.go": "a\n"})
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "edit_file", `{"path":"main.go","old_string":"a","new_string":"b"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c2", "edit_file", `{"path":"main.go","old_string":"b","new_string":"c"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("edit")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "main.go")); string(got) != "c\n" {
		t.Fatalf("main.go = %q, want both edits", got)
	}
	s.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.batches) != 2 || h.batches[0] == nil || h.batches[0] != h.batches[1] {
		t.Fatalf("edits ran with batches %v, want one batch for the turn", h.batches)
	}
	want := []string{filepath.Join(dir, "main.go")}
	for i, p := range h.pending {
		if !slices.Equal(p, want) {
			t.Errorf("after edit %d the batch held %v, want %v (written, not yet synced)", i+1, p, want)
		}
	}
	if p := h.batches[0].Pending(); len(p) != 0 {
		t.Errorf("after the turn the batch still holds %v; it was not synced", p)
	}
}

// A turn whose edits cannot be synced tells the user so, rather than
// leaving them to believe the disk holds them.
func TestTurnReportsEditsItCouldNotSync(t *testing.T) {
	f := newFixture(t, func(c *Config) {
		c.Pipeline.AfterEdit = append(c.Pipeline.AfterEdit, func(_ context.Context, e EditEvent, _ edits.Result, _ error) {
			// The edited file's directory becomes a plain file: the
			// fsync at the turn's end can no longer open the file.
			sub := filepath.Dir(e.Edit.Path)
			os.Rename(sub, sub+".moved")
			os.WriteFile(sub, []byte("x"), 0o644)
		})
	})
	s, h, _ := editSyncSession(t, f, map[string]string{"sub/a.go": "a\n"})
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "edit_file", `{"path":"sub/a.go","old_string":"a","new_string":"b"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("edit")); err != nil {
		t.Fatal(err)
	}
	s.Close() // waits for the sync after the answer, and sends its notice
	if text := h.text(); !strings.Contains(text, "Could not save the edited files") {
		t.Fatalf("the editor was sent %q, want the failed sync", text)
	}
}
