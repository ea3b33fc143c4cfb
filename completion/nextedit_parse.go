package completion

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// The reply format of a next-edit prompt: NONE, or blocks of
//
//	<<<<<<< SEARCH path
//	lines copied from the file
//	=======
//	the lines that replace them
//	>>>>>>> REPLACE
//
// A model's reply is untrusted: parseReply accepts exactly this shape and
// nothing else, and applyBlocks keeps a file's blocks only when every one
// of them matches the shown text exactly once.
const (
	markSearch  = "<<<<<<< SEARCH "
	markDivider = "======="
	markReplace = ">>>>>>> REPLACE"
	replyNone   = "NONE"
	// maxBlocks caps the blocks of one reply; a longer one is not a
	// "next edit".
	maxBlocks = 8
)

// errMalformed is a reply that is not in the format: it is dropped whole.
var errMalformed = errors.New("the model's next-edit reply is not in the asked format")

// block is one search/replace pair of a reply, with the file as the prompt
// named it.
type block struct {
	name    string
	search  string
	replace string
}

// parseReply reads a reply. Blank lines between blocks and one code fence
// around the whole reply (which chat models add unasked) are allowed;
// any other text outside the blocks makes the reply malformed.
func parseReply(reply string) ([]block, error) {
	lines := splitLines(strings.ReplaceAll(reply, "\r\n", "\n"))
	lines = unfence(lines)
	var out []block
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], "\n")
		switch {
		case strings.TrimSpace(l) == "":
			continue
		case strings.TrimSpace(l) == replyNone && len(out) == 0 && onlyBlank(lines[i+1:]):
			return nil, nil
		case !strings.HasPrefix(l, markSearch):
			return nil, fmt.Errorf("%w: line %d is outside a block", errMalformed, i+1)
		}
		b := block{name: strings.TrimSpace(strings.TrimPrefix(l, markSearch))}
		if b.name == "" {
			return nil, fmt.Errorf("%w: line %d names no file", errMalformed, i+1)
		}
		div, end := -1, -1
		for j := i + 1; j < len(lines) && end < 0; j++ {
			switch strings.TrimRight(lines[j], "\n") {
			case markDivider:
				if div >= 0 {
					return nil, fmt.Errorf("%w: two dividers in one block", errMalformed)
				}
				div = j
			case markReplace:
				end = j
			}
		}
		if div < 0 || end < div {
			return nil, fmt.Errorf("%w: a block is not closed", errMalformed)
		}
		b.search = strings.Join(lines[i+1:div], "")
		b.replace = strings.Join(lines[div+1:end], "")
		if b.search == "" {
			return nil, fmt.Errorf("%w: a block searches for nothing", errMalformed)
		}
		out = append(out, b)
		if len(out) > maxBlocks {
			return nil, fmt.Errorf("%w: more than %d blocks", errMalformed, maxBlocks)
		}
		i = end
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: neither NONE nor a block", errMalformed)
	}
	return out, nil
}

// unfence drops one ``` fence pair around the whole reply.
func unfence(lines []string) []string {
	first, last := 0, len(lines)-1
	for first <= last && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	for last >= first && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	if last > first && strings.HasPrefix(strings.TrimSpace(lines[first]), "```") && strings.TrimSpace(lines[last]) == "```" {
		return lines[first+1 : last]
	}
	return lines
}

func onlyBlank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// shownFile is a file the prompt showed: the name it was given there, its
// absolute path, its text when the prompt was made, and the byte spans
// shown. An edit may touch only shown text.
type shownFile struct {
	name  string
	path  string
	text  string
	spans [][2]int
}

func (f *shownFile) covers(start, end int) bool {
	for _, s := range f.spans {
		if start >= s[0] && end <= s[1] {
			return true
		}
	}
	return false
}

// applyBlocks applies the blocks to the shown files and returns one
// Suggestion per file whose every block applies: its search text occurs
// exactly once in the file, inside shown text, without overlapping another
// block, and changes something. A file with one block that does not apply
// is dropped whole (half a rename is worse than none), as are blocks
// naming a file the prompt did not show. Files come in the order the
// prompt showed them.
func applyBlocks(files []*shownFile, blocks []block) []Suggestion {
	var out []Suggestion
	for _, f := range files {
		type hit struct {
			start, end int
			text       string
		}
		var hits []hit
		ok := true
		for _, b := range blocks {
			if b.name != f.name {
				continue
			}
			search, replace := b.search, b.replace
			if strings.Contains(f.text, "\r\n") {
				search, replace = toCRLF(search), toCRLF(replace)
			}
			i := strings.Index(f.text, search)
			if i < 0 || strings.Contains(f.text[i+1:], search) || search == replace || !f.covers(i, i+len(search)) {
				ok = false
				break
			}
			hits = append(hits, hit{i, i + len(search), replace})
		}
		if !ok || len(hits) == 0 {
			continue
		}
		sort.Slice(hits, func(a, b int) bool { return hits[a].start < hits[b].start })
		var b strings.Builder
		at := 0
		for _, h := range hits {
			if h.start < at {
				ok = false // overlapping blocks
				break
			}
			b.WriteString(f.text[at:h.start])
			b.WriteString(h.text)
			at = h.end
		}
		if !ok {
			continue
		}
		b.WriteString(f.text[at:])
		out = append(out, Suggestion{Path: f.path, Old: f.text, New: b.String()})
	}
	return out
}

func toCRLF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}
