package checkpoints

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/tandemhq/tandem/plugin/sdk"
)

// An edit's save renames the state into place without an fsync; the turn's
// end puts it on stable storage.
func TestStateSyncedAtTurnEnd(t *testing.T) {
	s := load(filepath.Join(t.TempDir(), "sessions", "s1.json"))
	s.mu.Lock()
	s.cur = &checkpoint{N: 1, Files: []*file{{Path: "/a.txt", Before: "old\n"}}}
	s.List = append(s.List, s.cur)
	err := s.save()
	pending := s.synced.Pending()
	s.mu.Unlock()
	if err != nil || len(pending) != 1 || pending[0] != s.path {
		t.Fatalf("after an edit's save: %v, pending %v", err, pending)
	}
	if err := s.observe(sdk.HookTurnEnd, json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	if got := s.synced.Pending(); len(got) != 0 {
		t.Errorf("not synced at the turn's end: %v", got)
	}
	if got := load(s.path); len(got.List) != 1 || got.List[0].Files[0].Before != "old\n" {
		t.Errorf("reloaded: %+v", got.List)
	}
}
