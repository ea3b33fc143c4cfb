package edits

import (
	"time"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// refineLimit caps how many runes, both sides together, one changed block
// may hold and still be diffed character by character. Past it the block is
// replaced whole (after trimming what it shares at both ends): a rewrite
// that large gains nothing from minimal edits, and the character diff is
// quadratic in the worst case.
const refineLimit = 1 << 14

// refineBudget bounds the time all character refinement of one diff may
// take. go-diff stops a diff at its deadline with a correct but coarser
// result; once the budget is spent, remaining blocks are replaced whole.
// Only pathological inputs get near it, and they stay correct.
const refineBudget = 500 * time.Millisecond

// span says old[oldStart:oldEnd] becomes new[newStart:newEnd]. Between two
// spans the texts are byte-for-byte equal.
type span struct{ oldStart, oldEnd, newStart, newEnd int }

// lineRun is n consecutive lines that are kept, deleted or inserted.
type lineRun struct {
	op diffmatchpatch.Operation
	n  int
}

// lineBounds returns the byte offset where each line starts, followed by
// len(text). Lines end after "\n", "\r\n" or a lone "\r"; "" has no lines.
func lineBounds(text string) []int {
	b := appendLineStarts(make([]int, 1, 64), text, 0, len(text))
	if b[len(b)-1] != len(text) {
		b = append(b, len(text))
	}
	return b
}

// diffSpans is the character-refined difference from old to new, sorted,
// neither overlapping nor touching, with no boundary inside a rune or a
// "\r\n".
func diffSpans(old, new string) []span {
	if old == new {
		return nil
	}
	ob, nb := lineBounds(old), lineBounds(new)
	runs := lineDiff(old, new, ob, nb, true)
	var spans []span
	deadline := time.Now().Add(refineBudget)
	oi, ni := 0, 0
	for k := 0; k < len(runs); {
		if runs[k].op == diffmatchpatch.DiffEqual {
			oi, ni = oi+runs[k].n, ni+runs[k].n
			k++
			continue
		}
		od, nd := 0, 0
		for ; k < len(runs) && runs[k].op != diffmatchpatch.DiffEqual; k++ {
			if runs[k].op == diffmatchpatch.DiffDelete {
				od += runs[k].n
			} else {
				nd += runs[k].n
			}
		}
		spans = refine(spans, old, new, span{ob[oi], ob[oi+od], nb[ni], nb[ni+nd]}, deadline)
		oi, ni = oi+od, ni+nd
	}
	return snapCRLF(old, spans)
}

// lineDiff matches whole lines: each distinct line becomes one rune and
// go-diff diffs the rune strings. With semantic set, a cleanup folds short
// kept stretches between changes into one changed block, which character
// refinement then splits again where it matters; hunks shown to people skip
// it, because go-diff weighs every line as one character and would swallow
// single kept lines that diff -u shows.
// We split lines ourselves rather than with DiffLinesToRunes so that a lone
// "\r" ends a line, as it does for the editor, and so that too many distinct
// lines degrade to one block instead of a panic.
func lineDiff(old, new string, ob, nb []int, semantic bool) []lineRun {
	tok := newTokens(len(ob) + len(nb))
	a, okA := tok.encode(old, ob)
	b, okB := tok.encode(new, nb)
	if !okA || !okB {
		return trimmedRuns(old, new, ob, nb)
	}
	dmp := diffmatchpatch.New()
	diffs := dmp.DiffMainRunes(a, b, false)
	if semantic {
		diffs = dmp.DiffCleanupSemantic(diffs)
	}
	runs := make([]lineRun, 0, len(diffs))
	for _, d := range diffs {
		runs = append(runs, lineRun{d.Type, utf8.RuneCountInString(d.Text)})
	}
	return runs
}

// trimmedRuns keeps the lines both texts start and end with and replaces
// everything between.
func trimmedRuns(old, new string, ob, nb []int) []lineRun {
	lo, ln := len(ob)-1, len(nb)-1
	line := func(t string, b []int, i int) string { return t[b[i]:b[i+1]] }
	p := 0
	for p < lo && p < ln && line(old, ob, p) == line(new, nb, p) {
		p++
	}
	s := 0
	for s < lo-p && s < ln-p && line(old, ob, lo-1-s) == line(new, nb, ln-1-s) {
		s++
	}
	return []lineRun{
		{diffmatchpatch.DiffEqual, p},
		{diffmatchpatch.DiffDelete, lo - p - s},
		{diffmatchpatch.DiffInsert, ln - p - s},
		{diffmatchpatch.DiffEqual, s},
	}
}

// refine appends the character-level spans inside one changed block.
func refine(spans []span, old, new string, blk span, deadline time.Time) []span {
	a, b := old[blk.oldStart:blk.oldEnd], new[blk.newStart:blk.newEnd]
	ua, ub := unitStarts(a), unitStarts(b)
	// Trim shared units at both ends; what is left is never empty on both sides.
	unit := func(s string, u []int, i int) string { return s[u[i]:u[i+1]] }
	na, nb := len(ua)-1, len(ub)-1
	p := 0
	for p < na && p < nb && unit(a, ua, p) == unit(b, ub, p) {
		p++
	}
	q := 0
	for q < na-p && q < nb-p && unit(a, ua, na-1-q) == unit(b, ub, nb-1-q) {
		q++
	}
	ua, ub = ua[p:len(ua)-q], ub[p:len(ub)-q]
	na, nb = len(ua)-1, len(ub)-1
	whole := span{blk.oldStart + ua[0], blk.oldStart + ua[na], blk.newStart + ub[0], blk.newStart + ub[nb]}
	left := time.Until(deadline) // go-diff reads a timeout <= 0 as "none"
	switch {
	case na == 0 && nb == 0:
		return spans
	case na == 0 || nb == 0 || na+nb > refineLimit || left <= 0:
		return append(spans, whole)
	}

	ra, rb, ok := unitRunes(a, ua, b, ub)
	if !ok {
		return append(spans, whole)
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = left
	diffs := dmp.DiffCleanupEfficiency(dmp.DiffMainRunes(ra, rb, false))

	i, j := 0, 0 // unit indexes into ua, ub
	open := false
	var cur span
	for _, d := range diffs {
		n := utf8.RuneCountInString(d.Text)
		if d.Type == diffmatchpatch.DiffEqual {
			if open {
				cur.oldEnd, cur.newEnd = blk.oldStart+ua[i], blk.newStart+ub[j]
				spans, open = append(spans, cur), false
			}
			i, j = i+n, j+n
			continue
		}
		if !open {
			cur = span{oldStart: blk.oldStart + ua[i], newStart: blk.newStart + ub[j]}
			open = true
		}
		if d.Type == diffmatchpatch.DiffDelete {
			i += n
		} else {
			j += n
		}
	}
	if open {
		cur.oldEnd, cur.newEnd = blk.oldStart+ua[i], blk.newStart+ub[j]
		spans = append(spans, cur)
	}
	return spans
}

// unitStarts returns the byte offset of each unit of s (a rune, or a single
// byte that is not valid UTF-8) followed by len(s).
func unitStarts(s string) []int {
	u := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); {
		u = append(u, i)
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return append(u, len(s))
}

// snapCRLF widens any span that starts or ends between "\r" and "\n" so it
// takes the whole pair (LSP has no position there), then merges spans that
// came to touch. The byte taken in is outside every span, so it is equal in
// both texts and the new side widens by the same byte.
func snapCRLF(old string, spans []span) []span {
	inPair := func(i int) bool { return i > 0 && i < len(old) && old[i-1] == '\r' && old[i] == '\n' }
	out := spans[:0]
	for _, s := range spans {
		if inPair(s.oldStart) {
			s.oldStart, s.newStart = s.oldStart-1, s.newStart-1
		}
		if inPair(s.oldEnd) {
			s.oldEnd, s.newEnd = s.oldEnd+1, s.newEnd+1
		}
		if n := len(out); n > 0 && s.oldStart <= out[n-1].oldEnd {
			out[n-1].oldEnd, out[n-1].newEnd = s.oldEnd, s.newEnd
			continue
		}
		out = append(out, s)
	}
	return out
}
