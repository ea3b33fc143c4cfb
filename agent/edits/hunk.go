package edits

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// contextLines is how many unchanged lines surround each hunk, as in
// diff -u and git.
const contextLines = 3

// Op says what happens to a line in a hunk. Its value is the line's prefix
// in a unified diff.
type Op byte

const (
	Keep   Op = ' '
	Delete Op = '-'
	Insert Op = '+'
)

// Line is one line of a hunk. Text keeps its line break ("\n", "\r\n" or
// "\r"), or has none when it is the last line of a file without one.
type Line struct {
	Op   Op
	Text string
}

// Hunk is one block of changed lines with its surrounding context. Starts
// are 1-based line numbers; as in unified diffs, a side with no lines
// names the line before the hunk (0 at the top of the file).
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []Line
}

// Diff returns the hunks that turn old into new: a line diff with three
// lines of context, neighbouring hunks merged. Equal texts give none.
func Diff(old, new string) []Hunk {
	if old == new {
		return nil
	}
	ob, nb := lineBounds(old), lineBounds(new)
	var lines []Line
	oi, ni := 0, 0
	for _, r := range lineDiff(old, new, ob, nb, false) {
		for range r.n {
			switch r.op {
			case diffmatchpatch.DiffEqual:
				lines = append(lines, Line{Keep, old[ob[oi]:ob[oi+1]]})
				oi, ni = oi+1, ni+1
			case diffmatchpatch.DiffDelete:
				lines = append(lines, Line{Delete, old[ob[oi]:ob[oi+1]]})
				oi++
			default:
				lines = append(lines, Line{Insert, new[nb[ni]:nb[ni+1]]})
				ni++
			}
		}
	}
	return group(lines)
}

// group cuts the full line list into hunks.
func group(lines []Line) []Hunk {
	var hunks []Hunk
	oldLine, newLine := 0, 0 // lines of each side before lines[i]
	for i := 0; i < len(lines); {
		if lines[i].Op == Keep {
			oldLine, newLine, i = oldLine+1, newLine+1, i+1
			continue
		}
		lead := 0
		for lead < contextLines && i-lead > 0 && lines[i-lead-1].Op == Keep {
			lead++
		}
		// Extend over changes and over gaps too short to separate two hunks.
		end := i
		for {
			for end < len(lines) && lines[end].Op != Keep {
				end++
			}
			gap := 0
			for end+gap < len(lines) && lines[end+gap].Op == Keep {
				gap++
			}
			if end+gap == len(lines) || gap > 2*contextLines {
				end += min(gap, contextLines)
				break
			}
			end += gap
		}
		h := Hunk{Lines: lines[i-lead : end]}
		h.OldLines, h.NewLines = countOld(h.Lines), countNew(h.Lines)
		h.OldStart, h.NewStart = oldLine-lead, newLine-lead
		if h.OldLines > 0 {
			h.OldStart++
		}
		if h.NewLines > 0 {
			h.NewStart++
		}
		hunks = append(hunks, h)
		oldLine, newLine = oldLine-lead+h.OldLines, newLine-lead+h.NewLines
		i = end
	}
	return hunks
}

func countOld(lines []Line) int {
	n := 0
	for _, l := range lines {
		if l.Op != Insert {
			n++
		}
	}
	return n
}

func countNew(lines []Line) int {
	n := 0
	for _, l := range lines {
		if l.Op != Delete {
			n++
		}
	}
	return n
}

// Unified renders fe as a unified diff for terminals and logs. A created
// file comes from /dev/null and a deleted one goes to it. Lines keep their
// own breaks; a line without one is followed by the usual
// "\ No newline at end of file" marker. No change renders as "".
func Unified(path string, fe FileEdit) string {
	old, new := fe.Old, fe.New
	from, to := path, path
	if fe.Create {
		old, from = "", "/dev/null"
	}
	if fe.Delete {
		new, to = "", "/dev/null"
	}
	hunks := Diff(old, new)
	if len(hunks) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", from, to)
	for _, h := range hunks {
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(h.OldStart, h.OldLines), hunkRange(h.NewStart, h.NewLines))
		for _, l := range h.Lines {
			b.WriteByte(byte(l.Op))
			b.WriteString(l.Text)
			switch {
			case strings.HasSuffix(l.Text, "\n"):
			case strings.HasSuffix(l.Text, "\r"):
				b.WriteByte('\n')
			default:
				b.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	return b.String()
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
