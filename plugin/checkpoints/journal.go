package checkpoints

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
)

// The state is a snapshot (the state file) and a journal beside it (the
// same name + ".journal"): an edit appends one line to the journal, a few
// hundred bytes and the file's contents, where rewriting the snapshot
// would rename the whole session's checkpoints into place twice per edit
// (a rename over a file costs a block allocation and a writeback start on
// ext4, a millisecond or more under load). An appended line is in the page
// cache at once, so a tandem killed mid-turn loses nothing, as with the
// rename; the turn's end puts it on stable storage. Commands and a journal
// grown past the snapshot write a new snapshot, and the journal starts
// over.

// entry is one journal line: a change to checkpoint N.
type entry struct {
	// Gen is the snapshot generation the entry follows; a line of another
	// generation is left over from before a snapshot and already in it
	// (or undone since), so it is not replayed.
	Gen    int    `json:"gen"`
	N      int    `json:"n"`
	Prompt string `json:"prompt,omitempty"`
	File   *file  `json:"file,omitempty"` // the file's record as it is now
	Drop   string `json:"drop,omitempty"` // a path no longer in the checkpoint
	Gone   bool   `json:"gone,omitempty"` // the checkpoint is removed
}

// minCompact is the journal size below which a turn's end does not
// rewrite the snapshot, however small the snapshot.
const minCompact = 256 << 10

func (s *state) journalPath() string { return s.path + ".journal" }

// note appends e to the journal; the caller holds mu and has made the same
// change in memory.
func (s *state) note(e entry) error {
	e.Gen = s.Gen
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if s.journal == nil {
		if s.journalBytes == 0 {
			if err := os.MkdirAll(s.dir(), 0o700); err != nil {
				return err
			}
		}
		f, err := os.OpenFile(s.journalPath(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		s.journal = f
	}
	n, err := s.journal.Write(append(b, '\n'))
	s.journalBytes += int64(n)
	s.synced.Add(s.journalPath())
	if err != nil {
		s.closeJournal() // the next note opens it afresh
		return fmt.Errorf("checkpoint journal: %w", err)
	}
	return nil
}

// closeJournal closes the journal file if it is open: at the turn's end,
// and before the journal is removed; the caller holds mu.
func (s *state) closeJournal() error {
	if s.journal == nil {
		return nil
	}
	err := s.journal.Close()
	s.journal = nil
	return err
}

// replay applies the journal's lines of the snapshot's generation, in
// order; a torn last line (a crash mid-append) ends it.
func (s *state) replay() {
	b, err := os.ReadFile(s.journalPath())
	if err != nil {
		return
	}
	s.journalBytes = int64(len(b))
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for sc.Scan() {
		var e entry
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			return
		}
		if e.Gen == s.Gen {
			s.apply(e)
		}
	}
}

// apply makes the change e records.
func (s *state) apply(e entry) {
	i, c := s.find(e.N)
	if e.Gone {
		if c != nil {
			s.List = slices.Delete(s.List, i, i+1)
		}
		return
	}
	if c == nil {
		c = &checkpoint{N: e.N}
		s.List = append(s.List, c)
		s.Next = max(s.Next, e.N+1)
	}
	if e.Prompt != "" {
		c.Prompt = e.Prompt
	}
	if e.File != nil {
		if f := c.file(e.File.Path); f != nil {
			*f = *e.File
		} else {
			c.Files = append(c.Files, e.File)
		}
	}
	if e.Drop != "" {
		if f := c.file(e.Drop); f != nil {
			c.Files = dropFile(c.Files, f)
		}
	}
}

// compacted writes a new snapshot when the journal has outgrown the
// snapshot, so replay stays short and the disk used bounded; the caller
// holds mu.
func (s *state) compacted() error {
	if s.journalBytes < max(minCompact, s.snapshotBytes) {
		return nil
	}
	return s.save()
}

// dropJournal removes the journal once a snapshot holds what it said.
func (s *state) dropJournal() error {
	s.closeJournal() // written to the end; Windows removes no open file
	s.journalBytes = 0
	if err := os.Remove(s.journalPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
