package lsp

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/completion"
)

// buffer is an open document's text, edited in place. A keystroke-sized
// change moves the bytes after it and shifts the line index: no
// allocation of a whole new text per keystroke, which at a few hundred KB
// would churn the garbage collector while the user types. Positions follow
// edits.Mapper exactly (lines break at "\n", "\r\n" and a lone "\r"; a
// character past the end of a line means its end; line == LineCount means
// the end of the text), since Mapper does the per-line conversion.
type buffer struct {
	enc   edits.Encoding
	text  []byte
	lines []int // byte offset of each line start; lines[0] == 0

	snap    string // text as a string, valid while snapOK
	snapOK  bool
	scratch []int // reused for rescanned line starts
}

func newBuffer(text string, enc edits.Encoding) *buffer {
	b := &buffer{enc: enc, text: []byte(text), snap: text, snapOK: true}
	b.lines = scanLineStarts([]int{0}, b.text, 0, len(b.text))
	return b
}

// String returns the text; it is cached until the next change.
func (b *buffer) String() string {
	if !b.snapOK {
		b.snap, b.snapOK = string(b.text), true
	}
	return b.snap
}

func (b *buffer) contentEnd(i int) int {
	if i+1 >= len(b.lines) {
		return len(b.text)
	}
	e := b.lines[i+1] - 1
	if b.text[e] == '\n' && e > b.lines[i] && b.text[e-1] == '\r' {
		e--
	}
	return e
}

func (b *buffer) offset(p edits.Position) (int, error) {
	line := int(p.Line)
	if line >= len(b.lines) {
		if line == len(b.lines) {
			return len(b.text), nil
		}
		return 0, fmt.Errorf("%w: line %d, document has %d lines", edits.ErrPosition, p.Line, len(b.lines))
	}
	start, end := b.lines[line], b.contentEnd(line)
	off, err := edits.NewMapper(string(b.text[start:end]), b.enc).Offset(edits.Position{Character: p.Character})
	return start + off, err
}

// wholeLines returns lines first..last of the text with their line
// breaks, and the offset where they start; lines past the end are the
// last line.
func (b *buffer) wholeLines(first, last int) (text string, start int) {
	first, last = min(first, len(b.lines)-1), min(last, len(b.lines)-1)
	start, end := b.lines[first], len(b.text)
	if last+1 < len(b.lines) {
		end = b.lines[last+1]
	}
	return string(b.text[start:end]), start
}

// apply replaces r with s (one didChange content change).
func (b *buffer) apply(r edits.Range, s string) error {
	_, err := b.change("", r, s)
	return err
}

// splice replaces text[start:end] with s and updates the line index. A
// line start y depends only on bytes y-1 and y, so starts before the
// changed bytes stay, starts after them shift, and only the line holding
// the change is rescanned.
func (b *buffer) splice(start, end int, s string) {
	old := len(b.text)
	delta := len(s) - (end - start)
	if delta > 0 {
		b.text = append(b.text, make([]byte, delta)...)
	}
	copy(b.text[start+len(s):], b.text[end:old])
	copy(b.text[start:], s)
	b.text = b.text[:old+delta]
	b.snapOK = false

	// First line whose start may change: the one holding byte start-1.
	first := sort.SearchInts(b.lines, max(start-1, 0)+1) - 1
	// Old starts y > end depend only on unchanged bytes (y-1 >= end).
	keep := sort.SearchInts(b.lines, end+1)
	// Rescan the break bytes i with lines[first] <= i < end+delta: they
	// start the lines up to and including the one right after the change.
	b.scratch = scanLineStarts(b.scratch[:0], b.text, b.lines[first], end+delta)
	mid := b.scratch
	tail := len(b.lines) - keep
	n := first + 1 + len(mid) + tail
	if n > cap(b.lines) {
		b.lines = append(b.lines, make([]int, n-len(b.lines))...)
	}
	grown := b.lines[:max(n, len(b.lines))]
	copy(grown[first+1+len(mid):], b.lines[keep:])
	copy(grown[first+1:], mid)
	b.lines = grown[:n]
	for i := first + 1 + len(mid); i < n; i++ {
		b.lines[i] += delta
	}
}

// scanLineStarts appends to dst the start of every line that begins after
// a break byte at index i, from <= i < to. A "\r" directly followed by
// "\n" is not a break on its own (the look-ahead may read past to).
func scanLineStarts(dst []int, text []byte, from, to int) []int {
	for from < to {
		j := bytes.IndexAny(text[from:to], "\r\n")
		if j < 0 {
			break
		}
		i := from + j
		from = i + 1
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			continue
		}
		dst = append(dst, i+1)
	}
	return dst
}

// change applies one didChange content change and returns it as the
// whole-line Change the next-edit history records.
func (b *buffer) change(path string, r edits.Range, s string) (completion.Change, error) {
	start, err := b.offset(r.Start)
	if err != nil {
		return completion.Change{}, err
	}
	end, err := b.offset(r.End)
	if err != nil {
		return completion.Change{}, err
	}
	if end < start {
		return completion.Change{}, fmt.Errorf("%w: range %v ends before it starts", edits.ErrPosition, r)
	}
	first := int(min(r.Start.Line, uint32(len(b.lines)-1)))
	lines, at := b.wholeLines(first, int(r.End.Line))
	b.splice(start, end, s)
	return completion.LineChange(path, first, lines, start-at, end-at, s), nil
}
