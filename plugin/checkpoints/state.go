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

// state is one session's checkpoints, saved after every change so a
// reopened session (a new plugin process) finds them.
type state struct {
	mu   sync.Mutex
	path string
	// synced is the state file's group commit. Every save renames the new
	// content into place at once, so a tandem killed mid-turn loses no
	// checkpoint (the kernel has the file); the turn's end (and a command)
	// puts it on stable storage, once per turn as the session log and the
	// turn's own edits are, instead of an fsync per edit.
	synced atomicfile.Batch
	Next   int           `json:"next"`
	List   []*checkpoint `json:"checkpoints"`
	cur    *checkpoint   // the running turn's, once it edited
	prompt string        // the running turn's prompt
}

func load(path string) *state {
	s := &state{path: path, Next: 1}
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, s) // an unreadable file starts afresh
	}
	if s.Next < 1 {
		s.Next = 1
	}
	return s
}

// save replaces the state file, its fsync left to the next sync; the
// caller holds mu.
func (s *state) save() error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	d, err := atomicfile.OpenDir(filepath.Dir(s.path))
	if err != nil {
		return err
	}
	defer d.Close()
	return s.synced.WriteIn(d, filepath.Base(s.path), b, 0o600)
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
