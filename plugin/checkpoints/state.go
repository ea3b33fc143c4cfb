// Package checkpoints is tandem's bundled checkpoints plugin: every turn's
// file edits become a checkpoint, /undo reverts the last one, /rewind goes
// back to any of them (files, conversation or both) and /changes lists
// what the session changed. It is built only on the public plugin
// protocol (plugin/sdk): the beforeFileEdit and afterFileEdit hooks, the
// turn hooks, host/marker, host/rewind and host/applyEdit. tandem serves it
// on goroutines of its own process, over in-memory pipes (or on stdio, as
// `tandem __plugin checkpoints`).
//
// It must never write a file itself: every restore goes through the
// editor, and a file the user changed since is left alone.
package checkpoints

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"

	"github.com/tandemhq/tandem/internal/atomicfile"
)

// file is one file a checkpoint's turn changed: as it was before the
// turn's first edit of it, and after its last applied one.
type file struct {
	Path        string `json:"path"`
	Existed     bool   `json:"existed"`
	Before      string `json:"before"`
	After       string `json:"after"`
	AfterExists bool   `json:"afterExists"`
	Applied     bool   `json:"applied"` // an edit of it landed
	// pending is the content the edit in flight would leave.
	pending       string
	pendingExists bool
}

// checkpoint is one turn's edits.
type checkpoint struct {
	N      int     `json:"n"`
	Prompt string  `json:"prompt"`
	Files  []*file `json:"files"`
}

func (c *checkpoint) file(path string) *file {
	for _, f := range c.Files {
		if f.Path == path {
			return f
		}
	}
	return nil
}

// state is one session's checkpoints, saved after every change (see
// journal.go) so a reopened session (a new plugin process) finds them.
type state struct {
	mu    sync.Mutex
	ended sync.WaitGroup // endTurn's goroutines
	path  string
	// synced is the group commit of the state's files. Every change is on
	// disk at once (appended to the journal, or a snapshot renamed into
	// place), so a tandem killed mid-turn loses no checkpoint (the kernel
	// has the file); the turn's end (and a command) puts it on stable
	// storage, once per turn as the session log and the turn's own edits
	// are, instead of an fsync per edit.
	synced atomicfile.Batch
	// journalBytes and snapshotBytes are the files' sizes, for compaction.
	journalBytes, snapshotBytes int64
	// journal is the journal file, open from a turn's first note to the
	// turn's end (closeJournal), so a turn's edits append without opening
	// it again each.
	journal *os.File
	// Gen is the snapshot's generation: journal lines carry the one they
	// follow.
	Gen    int           `json:"gen,omitempty"`
	Next   int           `json:"next"`
	List   []*checkpoint `json:"checkpoints"`
	cur    *checkpoint   // the running turn's, once it edited
	prompt string        // the running turn's prompt
}

func load(path string) *state {
	s := &state{path: path, Next: 1}
	if b, err := os.ReadFile(path); err == nil {
		s.snapshotBytes = int64(len(b))
		json.Unmarshal(b, s) // an unreadable file starts afresh
	}
	s.replay()
	if s.Next < 1 {
		s.Next = 1
	}
	return s
}

func (s *state) dir() string { return filepath.Dir(s.path) }

// save writes a new snapshot of the whole state, on stable storage before
// the journal it replaces is removed; the caller holds mu.
func (s *state) save() error {
	s.Gen++
	b, err := json.Marshal(s)
	if err == nil {
		err = os.MkdirAll(s.dir(), 0o700)
	}
	var d *atomicfile.Dir
	if err == nil {
		d, err = atomicfile.OpenDir(s.dir())
	}
	if err == nil {
		err = s.synced.WriteIn(d, filepath.Base(s.path), b, 0o600)
		d.Close()
	}
	if err != nil {
		s.Gen-- // the journal goes on after the snapshot on disk
		return err
	}
	s.snapshotBytes = int64(len(b))
	if err := s.synced.Sync(); err != nil {
		return err
	}
	return s.dropJournal()
}

// commit saves the state and puts it on stable storage; the caller holds
// mu.
func (s *state) commit() error {
	return errors.Join(s.save(), s.synced.Sync())
}

// find returns the checkpoint numbered n.
func (s *state) find(n int) (int, *checkpoint) {
	for i, c := range s.List {
		if c.N == n {
			return i, c
		}
	}
	return -1, nil
}
