package tools

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// replaceOutcome is a successful replacement: the new content, how many
// places changed and the 1-based line of the first.
type replaceOutcome struct {
	content string
	count   int
	line    int
	fuzzy   bool // found by the whitespace-tolerant match
}

// replaceText applies edit_file's matching rules to content. The error is
// for the model: it says what did not match and how to retry.
func replaceText(content, oldStr, newStr string, replaceAll bool) (replaceOutcome, error) {
	// A model writes "\n"; a CRLF file has "\r\n". Match and write in the
	// file's own convention, whichever the model used in each string.
	if isCRLF(content) {
		oldStr, newStr = toCRLF(oldStr), toCRLF(newStr)
	}
	switch n := strings.Count(content, oldStr); {
	case n == 1 || (n > 1 && replaceAll):
		first := strings.Index(content, oldStr)
		return replaceOutcome{
			content: strings.ReplaceAll(content, oldStr, newStr),
			count:   n,
			line:    lineAt(content, first),
		}, nil
	case n > 1:
		return replaceOutcome{}, fmt.Errorf("old_string matches %d times, at lines %s. Include more surrounding lines so it matches exactly once, or set replace_all to change every occurrence",
			n, joinInts(matchLines(content, oldStr)))
	}
	return fuzzyReplace(content, oldStr, newStr)
}

// fuzzyReplace is the fallback when old_string is not in the file verbatim:
// whole lines are compared with runs of whitespace collapsed and the ends
// trimmed. It is used only when exactly one place matches; the file's
// indentation is kept and new_string's indentation is shifted to it.
func fuzzyReplace(content, oldStr, newStr string) (replaceOutcome, error) {
	fileLines := strings.Split(content, "\n")
	oldLines := splitLines(oldStr)
	for len(oldLines) > 0 && strings.TrimSpace(oldLines[0]) == "" {
		oldLines = oldLines[1:]
	}
	for len(oldLines) > 0 && strings.TrimSpace(oldLines[len(oldLines)-1]) == "" {
		oldLines = oldLines[:len(oldLines)-1]
	}
	if len(oldLines) == 0 {
		return replaceOutcome{}, fmt.Errorf("old_string is only whitespace and does not occur in the file; give the exact text to replace")
	}
	want := make([]string, len(oldLines))
	for i, l := range oldLines {
		want[i] = collapseSpace(l)
	}
	norm := make([]string, len(fileLines))
	for i, l := range fileLines {
		norm[i] = collapseSpace(l)
	}
	var starts []int
	for i := 0; i+len(want) <= len(norm); i++ {
		if equalAt(norm, want, i) {
			starts = append(starts, i)
		}
	}
	switch len(starts) {
	case 0:
		return replaceOutcome{}, notFoundError(fileLines, oldLines)
	case 1:
	default:
		lines := make([]int, len(starts))
		for i, s := range starts {
			lines[i] = s + 1
		}
		return replaceOutcome{}, fmt.Errorf("old_string does not occur exactly; ignoring whitespace it matches %d places, at lines %s, so it is ambiguous. Copy the exact text from read_file output, with enough surrounding lines to be unique",
			len(starts), joinInts(lines))
	}

	start := starts[0]
	end := start + len(want) // exclusive
	cr := strings.HasSuffix(fileLines[start], "\r")
	newLines := reindent(splitLines(newStr), oldLines, fileLines[start:end])
	if cr {
		for i := range newLines {
			newLines[i] += "\r"
		}
	}
	out := make([]string, 0, len(fileLines)-len(want)+len(newLines))
	out = append(out, fileLines[:start]...)
	out = append(out, newLines...)
	out = append(out, fileLines[end:]...)
	return replaceOutcome{content: strings.Join(out, "\n"), count: 1, line: start + 1, fuzzy: true}, nil
}

func equalAt(norm, want []string, at int) bool {
	for j, w := range want {
		if norm[at+j] != w {
			return false
		}
	}
	return true
}

// collapseSpace trims s and turns each run of whitespace into one space.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

func indentOf(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// reindent rewrites new_string's indentation in the file's terms. The
// matched lines pair each indentation old_string used with the one the file
// has (four spaces -> a tab, say); a new line indented like one of them gets
// the file's counterpart. Other lines are shifted by the first line's
// difference, and when a pairing is contradictory it is not used.
func reindent(lines, oldLines, matched []string) []string {
	pairs := map[string]string{}
	conflict := map[string]bool{}
	for i, o := range oldLines {
		if strings.TrimSpace(o) == "" {
			continue
		}
		from, to := indentOf(o), indentOf(strings.TrimSuffix(matched[i], "\r"))
		if prev, ok := pairs[from]; ok && prev != to {
			conflict[from] = true
		}
		pairs[from] = to
	}
	shiftFrom := indentOf(oldLines[0])
	shiftTo := indentOf(strings.TrimSuffix(matched[0], "\r"))
	out := make([]string, len(lines))
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if strings.TrimSpace(l) != "" {
			ind := indentOf(l)
			if to, ok := pairs[ind]; ok && !conflict[ind] {
				l = to + l[len(ind):]
			} else if rest, ok := strings.CutPrefix(l, shiftFrom); ok && !conflict[shiftFrom] {
				l = shiftTo + rest
			}
		}
		out[i] = l
	}
	return out
}

// notFoundError shows the model the part of the file most like old_string,
// with line numbers, so it can copy the real text and retry.
func notFoundError(fileLines, oldLines []string) error {
	start, score := closestWindow(fileLines, oldLines)
	if score < 0.3 {
		return fmt.Errorf("old_string was not found in the file, and nothing in it looks similar. Read the file again with read_file and copy the exact text to replace")
	}
	from := max(start-2, 0)
	to := min(start+len(oldLines)+2, len(fileLines))
	var b strings.Builder
	for i := from; i < to; i++ {
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, strings.TrimSuffix(fileLines[i], "\r"))
	}
	return fmt.Errorf("old_string was not found in the file. The closest lines are %d-%d:\n%sCopy the exact text (without the line numbers) into old_string and retry",
		start+1, min(start+len(oldLines), len(fileLines)), b.String())
}

// closestWindow finds the run of len(oldLines) file lines most similar to
// oldLines, by the mean bigram similarity of their lines. Bigram profiles
// are computed once per line, so a long file costs one merge per pair.
func closestWindow(fileLines, oldLines []string) (start int, score float64) {
	n := min(len(oldLines), len(fileLines))
	want := make([][]uint16, len(oldLines))
	for i, l := range oldLines {
		want[i] = bigrams(collapseSpace(l))
	}
	have := make([][]uint16, len(fileLines))
	for i, l := range fileLines {
		have[i] = bigrams(collapseSpace(l))
	}
	best := -1.0
	for _, i := range windowCandidates(have, want, n) {
		s := 0.0
		for j := 0; j < n; j++ {
			s += dice(have[i+j], want[j])
		}
		s /= float64(len(oldLines))
		if s > best || (s == best && i < start) {
			best, start = s, i
		}
	}
	return start, best
}

// windowCandidates lists the window starts worth scoring in full. For a
// small search that is all of them; for a large one, the starts whose first
// and last lines resemble old_string's most, which keeps a failed edit on a
// long file from costing a second.
func windowCandidates(have, want [][]uint16, n int) []int {
	const fullSearchPairs, keep = 200_000, 256
	count := len(have) - n + 1
	all := make([]int, count)
	for i := range all {
		all[i] = i
	}
	if count*n <= fullSearchPairs {
		return all
	}
	edge := make([]float64, count)
	for i := range edge {
		edge[i] = dice(have[i], want[0]) + dice(have[i+n-1], want[n-1])
	}
	slices.SortStableFunc(all, func(a, b int) int { return cmp.Compare(edge[b], edge[a]) })
	return all[:keep]
}

// bigrams is the sorted multiset of s's byte pairs. A one-byte string is
// its own "pair" so short lines like "}" still compare equal.
func bigrams(s string) []uint16 {
	if len(s) == 1 {
		return []uint16{uint16(s[0])}
	}
	out := make([]uint16, 0, max(len(s)-1, 0))
	for i := 0; i+1 < len(s); i++ {
		out = append(out, uint16(s[i])<<8|uint16(s[i+1]))
	}
	slices.Sort(out)
	return out
}

// dice is the Dice coefficient of two sorted bigram multisets: 1 for equal
// lines, 0 for lines sharing nothing. Two empty lines are equal.
func dice(a, b []uint16) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	shared := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			shared++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(shared) / float64(len(a)+len(b))
}

// lineAt is the 1-based line of byte offset off.
func lineAt(s string, off int) int { return strings.Count(s[:off], "\n") + 1 }

func matchLines(content, sub string) []int {
	var lines []int
	for off := 0; ; {
		i := strings.Index(content[off:], sub)
		if i < 0 {
			return lines
		}
		lines = append(lines, lineAt(content, off+i))
		off += i + max(len(sub), 1)
	}
}

func joinInts(xs []int) string {
	const show = 20
	parts := make([]string, 0, min(len(xs), show))
	for i, x := range xs {
		if i == show {
			return strings.Join(parts, ", ") + fmt.Sprintf(" and %d more", len(xs)-show)
		}
		parts = append(parts, fmt.Sprint(x))
	}
	return strings.Join(parts, ", ")
}
