package checkpoints

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/plugin/sdk"
)

// An edit's change is appended to the journal without an fsync and
// without rewriting the state; the turn's end puts it on stable storage.
func TestStateSyncedAtTurnEnd(t *testing.T) {
	s := load(filepath.Join(t.TempDir(), "sessions", "s1.json"))
	s.mu.Lock()
	s.cur = &checkpoint{N: 1, Files: []*file{{Path: "/a.txt", Before: "old\n"}}}
	s.List = append(s.List, s.cur)
	err := s.note(entry{N: 1, File: s.cur.Files[0]})
	pending := s.synced.Pending()
	s.mu.Unlock()
	if err != nil || len(pending) != 1 || pending[0] != s.journalPath() {
		t.Fatalf("after an edit's note: %v, pending %v", err, pending)
	}
	if _, err := os.Stat(s.path); !os.IsNotExist(err) {
		t.Errorf("an edit rewrote the state file: %v", err)
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

// A turn's edits, replayed from the journal, are the state the turn left:
// the file's first content, its last applied one, a refused file dropped,
// a checkpoint whose every edit was refused gone; a torn last line (a
// crash mid-append) is ignored.
func TestJournalReplaysTheTurns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions", "s1.json")
	s := load(path)
	turn := func(prompt string, edits ...sdk.AfterFileEditParams) {
		t.Helper()
		must(t, s.observe(sdk.HookTurnStart, raw(t, sdk.MessageParams{Text: prompt})))
		for i, e := range edits {
			s.mu.Lock()
			if s.cur == nil {
				s.cur = &checkpoint{N: s.Next, Prompt: s.prompt}
				s.Next++
				s.List = append(s.List, s.cur)
			}
			f := s.cur.file(e.Path)
			if f == nil {
				f = &file{Path: e.Path, Existed: true, Before: "v0"}
				s.cur.Files = append(s.cur.Files, f)
				must(t, s.note(entry{N: s.cur.N, Prompt: s.cur.Prompt, File: f}))
			}
			f.pending, f.pendingExists = "v"+string(rune('1'+i)), true
			s.mu.Unlock()
			must(t, s.observe(sdk.HookAfterFileEdit, raw(t, e)))
		}
		must(t, s.observe(sdk.HookTurnEnd, json.RawMessage(`{}`)))
	}
	turn("one", sdk.AfterFileEditParams{Path: "/a", Applied: true}, sdk.AfterFileEditParams{Path: "/b"}, sdk.AfterFileEditParams{Path: "/a", Applied: true})
	turn("refused", sdk.AfterFileEditParams{Path: "/c"})
	turn("two", sdk.AfterFileEditParams{Path: "/b", Applied: true})
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("small turns rewrote the state file: %v", err)
	}
	f, err := os.OpenFile(s.journalPath(), os.O_WRONLY|os.O_APPEND, 0)
	must(t, err)
	f.WriteString(`{"gen":0,"n":9,"file":{"path":"/torn`)
	f.Close()

	got := load(path)
	want, _ := json.Marshal(s)
	if b, _ := json.Marshal(got); string(b) != string(want) {
		t.Errorf("replayed:\n%s\nwant:\n%s", b, want)
	}
	if got.Next != 4 || len(got.List) != 2 || got.List[0].Files[0].After != "v3" || len(got.List[0].Files) != 1 {
		t.Errorf("replayed state: next %d, %s", got.Next, want)
	}
}

// A snapshot (a command's commit) supersedes the journal: lines left from
// before it, had the journal's removal not happened, are not replayed, so
// an undone checkpoint does not come back.
func TestSnapshotSupersedesTheJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions", "s1.json")
	s := load(path)
	s.mu.Lock()
	s.cur = &checkpoint{N: 1, Files: []*file{{Path: "/a", Before: "old"}}}
	s.List, s.Next = append(s.List, s.cur), 2
	must(t, s.note(entry{N: 1, File: s.cur.Files[0]}))
	old, err := os.ReadFile(s.journalPath())
	must(t, err)
	s.List, s.cur = nil, nil // undone
	must(t, s.commit())
	s.mu.Unlock()
	if _, err := os.Stat(s.journalPath()); !os.IsNotExist(err) {
		t.Errorf("the journal outlived the snapshot: %v", err)
	}
	must(t, os.WriteFile(s.journalPath(), old, 0o600)) // as if the removal was lost
	if got := load(path); len(got.List) != 0 || got.Next != 2 {
		t.Errorf("after the snapshot: next %d, %d checkpoints", got.Next, len(got.List))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func raw(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	must(t, err)
	return b
}

// A journal grown past the snapshot (and past minCompact) is folded into
// a new snapshot at the turn's end: the journal starts over, and the state
// reloads the same.
func TestTurnEndCompactsALongJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions", "s1.json")
	s := load(path)
	big := strings.Repeat("x", 64<<10)
	s.mu.Lock()
	s.cur = &checkpoint{N: 1, Prompt: "p"}
	s.List, s.Next = append(s.List, s.cur), 2
	for i := 0; s.journalBytes < minCompact; i++ {
		f := &file{Path: fmt.Sprintf("/f%d", i), Existed: true, Before: big, After: big, AfterExists: true, Applied: true}
		s.cur.Files = append(s.cur.Files, f)
		must(t, s.note(entry{N: 1, Prompt: "p", File: f}))
	}
	s.mu.Unlock()
	must(t, s.observe(sdk.HookTurnEnd, json.RawMessage(`{}`)))
	if _, err := os.Stat(s.journalPath()); !os.IsNotExist(err) {
		t.Errorf("the journal was not folded into the snapshot: %v", err)
	}
	if s.Gen != 1 || s.snapshotBytes < minCompact {
		t.Errorf("snapshot: generation %d, %d bytes", s.Gen, s.snapshotBytes)
	}
	want, _ := json.Marshal(s)
	if got, _ := json.Marshal(load(path)); string(got) != string(want) {
		t.Errorf("reloaded differs from the state (%d vs %d bytes)", len(got), len(want))
	}
}
