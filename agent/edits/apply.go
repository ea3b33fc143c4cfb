package edits

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// ErrOverlap reports edits whose ranges overlap, which LSP forbids.
var ErrOverlap = errors.New("edits: overlapping edits")

// replacement is one edit in byte offsets of the original text.
type replacement struct {
	start, end int
	text       string
}

// Apply returns a Mapper for the text with edits applied and leaves m
// unchanged. As in an LSP WorkspaceEdit, every range refers to the original
// text, ranges must not overlap, and inserts at the same place go in the
// order given. (LSP didChange content changes are different: each refers
// to the text the previous one left, so apply them one at a time.) The line index is updated,
// not rebuilt: only the replaced bytes are rescanned, so a keystroke costs
// little more than copying the text.
func (m *Mapper) Apply(edits []TextEdit) (*Mapper, error) {
	if len(edits) == 0 {
		return m, nil
	}
	reps := make([]replacement, len(edits))
	size := len(m.text)
	for i, e := range edits {
		start, end, err := m.Offsets(e.Range)
		if err != nil {
			return nil, fmt.Errorf("edit %d (%v): %w", i, e.Range, err)
		}
		reps[i] = replacement{start, end, e.NewText}
		size += len(e.NewText) - (end - start)
	}
	slices.SortStableFunc(reps, func(a, b replacement) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end))
	})
	for i := 1; i < len(reps); i++ {
		if reps[i].start < reps[i-1].end {
			return nil, fmt.Errorf("%w: bytes %d-%d and %d-%d; send edits whose ranges are disjoint",
				ErrOverlap, reps[i-1].start, reps[i-1].end, reps[i].start, reps[i].end)
		}
	}

	var b strings.Builder
	b.Grow(size)
	last := 0
	for _, r := range reps {
		b.WriteString(m.text[last:r.start])
		b.WriteString(r.text)
		last = r.end
	}
	b.WriteString(m.text[last:])
	text := b.String()
	return &Mapper{text: text, enc: m.enc, lines: m.spliceLines(text, reps)}, nil
}

// spliceLines builds the line index of text, which is m.text with reps
// applied. Whether a line starts at byte y depends only on bytes y-1 and y,
// so old starts whose two bytes lie outside every replacement carry over,
// shifted, and only each replacement (plus the byte before it) is rescanned.
func (m *Mapper) spliceLines(text string, reps []replacement) []int {
	lines := make([]int, 1, len(m.lines)+8)
	delta, prevEnd, scanned := 0, 0, 0
	keep := func(from, to int) { // old starts y with from <= y < to
		lo, hi := sort.SearchInts(m.lines, max(from, 1)), sort.SearchInts(m.lines, to)
		for _, y := range m.lines[lo:max(lo, hi)] {
			lines = append(lines, y+delta)
		}
	}
	for _, r := range reps {
		keep(prevEnd+1, r.start)
		start := r.start + delta
		end := start + len(r.text)
		lines = appendLineStarts(lines, text, max(start-1, scanned), end)
		scanned = end
		delta += len(r.text) - (r.end - r.start)
		prevEnd = r.end
	}
	keep(prevEnd+1, len(m.text)+1)
	return lines
}
