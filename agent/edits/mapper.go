package edits

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrPosition reports a position or offset outside the text. Callers that
// got it from a peer should answer with an error, not retry.
var ErrPosition = errors.New("edits: position outside the document")

// Mapper converts between byte offsets in one text and LSP positions in one
// encoding. Line starts are indexed once, when the Mapper is built; a Mapper
// is immutable, so one snapshot can be shared by goroutines, and Apply
// returns a new one.
//
// Lines break at "\n", "\r\n" and a lone "\r", as LSP defines them. A text
// always has at least one line; "a\n" has two (the second is empty).
// Build one with NewMapper; the zero Mapper is not usable.
type Mapper struct {
	text  string
	enc   Encoding
	lines []int // byte offset of the start of each line; lines[0] == 0
}

// NewMapper indexes text for positions counted in enc.
func NewMapper(text string, enc Encoding) *Mapper {
	lines := make([]int, 1, strings.Count(text, "\n")+1)
	return &Mapper{text: text, enc: enc.normal(), lines: appendLineStarts(lines, text, 0, len(text))}
}

// Text is the indexed text.
func (m *Mapper) Text() string { return m.text }

// LineCount is the number of LSP lines in the text (at least 1).
func (m *Mapper) LineCount() int { return len(m.lines) }

// Position converts a byte offset. An offset inside a rune maps to the start
// of that rune and one between "\r" and "\n" to the end of the line, because
// LSP cannot name those places.
func (m *Mapper) Position(offset int) (Position, error) {
	if offset < 0 || offset > len(m.text) {
		return Position{}, fmt.Errorf("%w: byte offset %d, text has %d bytes", ErrPosition, offset, len(m.text))
	}
	line := sort.SearchInts(m.lines, offset+1) - 1
	start, end := m.lines[line], m.contentEnd(line)
	char := m.enc.unitsBefore(m.text[start:end], offset-start)
	return Position{Line: uint32(line), Character: uint32(char)}, nil
}

// Offset converts a position to a byte offset. As LSP asks, a Character past
// the end of its line means the end of the line; one inside a rune (half a
// surrogate pair, part of a UTF-8 sequence) means the start of that rune. A
// Line equal to LineCount means the end of the text, which some clients
// send for "everything"; a larger Line is an error.
func (m *Mapper) Offset(p Position) (int, error) {
	line := int(p.Line)
	if line >= len(m.lines) {
		if line == len(m.lines) {
			return len(m.text), nil
		}
		return 0, fmt.Errorf("%w: line %d, document has %d lines", ErrPosition, p.Line, len(m.lines))
	}
	start, end := m.lines[line], m.contentEnd(line)
	return start + m.enc.advance(m.text[start:end], int(p.Character)), nil
}

// Range converts a byte range [start, end).
func (m *Mapper) Range(start, end int) (Range, error) {
	s, err := m.Position(start)
	if err != nil {
		return Range{}, err
	}
	e, err := m.Position(end)
	if err != nil {
		return Range{}, err
	}
	return Range{Start: s, End: e}, nil
}

// Offsets converts a range to byte offsets. A range whose end comes before
// its start is an error.
func (m *Mapper) Offsets(r Range) (start, end int, err error) {
	if start, err = m.Offset(r.Start); err != nil {
		return 0, 0, err
	}
	if end, err = m.Offset(r.End); err != nil {
		return 0, 0, err
	}
	if end < start {
		return 0, 0, fmt.Errorf("%w: range %v ends before it starts", ErrPosition, r)
	}
	return start, end, nil
}

// contentEnd is where line i's text ends, before its line break.
func (m *Mapper) contentEnd(i int) int {
	if i+1 >= len(m.lines) {
		return len(m.text)
	}
	e := m.lines[i+1] - 1 // the last byte of the break: '\n' or a lone '\r'
	if m.text[e] == '\n' && e > m.lines[i] && m.text[e-1] == '\r' {
		e--
	}
	return e
}

// appendLineStarts appends the start of every line that begins after a
// break byte at index i, from <= i < to. A '\r' directly followed by '\n'
// is not a break on its own; the look-ahead may read past to, which lets an
// incremental update rescan only the bytes it changed.
func appendLineStarts(dst []int, text string, from, to int) []int {
	nl, cr := indexFrom(text, from, to, '\n'), indexFrom(text, from, to, '\r')
	for nl >= 0 || cr >= 0 {
		var i int
		if cr < 0 || (nl >= 0 && nl < cr) {
			i, nl = nl, indexFrom(text, nl+1, to, '\n')
		} else {
			i, cr = cr, indexFrom(text, cr+1, to, '\r')
			if i+1 < len(text) && text[i+1] == '\n' {
				continue
			}
		}
		dst = append(dst, i+1)
	}
	return dst
}

func indexFrom(s string, from, to int, c byte) int {
	if from >= to {
		return -1
	}
	if j := strings.IndexByte(s[from:to], c); j >= 0 {
		return from + j
	}
	return -1
}
