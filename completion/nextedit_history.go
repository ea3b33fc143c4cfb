package completion

import (
	"strings"

	"github.com/tandemhq/tandem/agent/edits"
)

// Change is one recorded edit of a document, in whole lines: the lines
// from Line (zero-based) that held Old now hold New. Old and New keep their
// line breaks. The next-edit engine shows recent Changes to the model as
// diffs, so what it records is what the user did, not how the editor sent
// it (a word typed key by key is one Change).
type Change struct {
	Path string
	Line int
	Old  string
	New  string
}

// maxHistory is how many Changes a History keeps: enough for a rename
// carried to a few places, few enough to keep the prompt short.
const maxHistory = 8

// History is the recent edits of one editor's documents, oldest first.
// It is not safe for concurrent use: its owner (a front door's document
// store) calls it under the lock that guards the documents.
type History struct {
	changes []Change
}

// Record adds c. A change inside the lines of the previous one (the next
// keystroke of the same word) is folded into it; a change that leaves the
// previous one's lines as they were before it removes it.
func (h *History) Record(c Change) {
	if c.Old == c.New {
		return
	}
	oldN, newN := lineCount(c.Old), lineCount(c.New)
	for i := range h.changes {
		// Keep earlier changes' lines pointing at the same text.
		p := &h.changes[i]
		if p.Path == c.Path && p.Line >= c.Line+oldN && oldN != newN {
			p.Line += newN - oldN
		}
	}
	if n := len(h.changes); n > 0 {
		last := &h.changes[n-1]
		lastN := lineCount(last.New)
		if last.Path == c.Path && c.Line >= last.Line && c.Line+oldN <= last.Line+lastN {
			lines := splitLines(last.New)
			from := c.Line - last.Line
			merged := strings.Join(lines[:from], "") + c.New + strings.Join(lines[from+oldN:], "")
			last.New = merged
			if last.New == last.Old {
				h.changes = h.changes[:n-1]
			}
			return
		}
	}
	h.changes = append(h.changes, c)
	if len(h.changes) > maxHistory {
		h.changes = append(h.changes[:0], h.changes[len(h.changes)-maxHistory:]...)
	}
}

// LineChange is the Change that replacing lines[from:to] with text makes,
// where lines is the whole lines (from Line on) the replaced span touches.
func LineChange(path string, line int, lines string, from, to int, text string) Change {
	return Change{Path: path, Line: line, Old: lines, New: lines[:from] + text + lines[to:]}
}

// Recent returns a copy of the changes, oldest first.
func (h *History) Recent() []Change {
	return append([]Change(nil), h.changes...)
}

// Forget drops the changes of path (its document was closed or replaced
// wholesale, so their line numbers mean nothing any more).
func (h *History) Forget(path string) {
	kept := h.changes[:0]
	for _, c := range h.changes {
		if c.Path != path {
			kept = append(kept, c)
		}
	}
	h.changes = kept
}

// splitLines cuts s after each "\n"; the last piece may lack one. "" has
// no lines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	parts := strings.SplitAfter(s, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// lineCount is len(splitLines(s)) without the allocation.
func lineCount(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// TextChanges are the Changes that turn old into new, for an editor that
// sends a whole document instead of the edit: one per hunk, from the
// bottom up so that each one's line is right when it is recorded.
func TextChanges(path, old, new string) []Change {
	hunks := edits.Diff(old, new)
	out := make([]Change, 0, len(hunks))
	for i := len(hunks) - 1; i >= 0; i-- {
		h := hunks[i]
		var o, n strings.Builder
		for _, l := range h.Lines {
			if l.Op != edits.Insert {
				o.WriteString(l.Text)
			}
			if l.Op != edits.Delete {
				n.WriteString(l.Text)
			}
		}
		line := h.OldStart - 1
		if h.OldLines == 0 {
			line = h.OldStart // a side with no lines names the line before
		}
		out = append(out, Change{Path: path, Line: line, Old: o.String(), New: n.String()})
	}
	return out
}
