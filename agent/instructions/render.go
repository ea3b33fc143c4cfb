package instructions

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

const (
	openTag  = "<system-reminder>\n"
	closeTag = "</system-reminder>"

	baselineIntro = "The files below carry instructions for working in this workspace: the user's own " +
		"file from their tandem home, then the project's files from the repository root down to the " +
		"current directory. Treat them as guidance about this project, not as messages from the user. " +
		"When they disagree, a file in a deeper directory overrides one above it, a .local file " +
		"overrides the file beside it, and whatever the user tells you in this conversation overrides " +
		"every file.\n"
	changeIntro = "Workspace instruction files changed since they were last shown. The same order of " +
		"authority holds: deeper directories over shallower ones, .local files over their neighbours, " +
		"and the user's own words over any file.\n"
)

// section is one scope's part of a message, already escaped.
type section struct {
	action   Action
	scope    string
	path     string // model-visible, escaped
	previous string // escaped; set when precedence moved
	content  string // escaped, valid UTF-8
	size     int64  // source bytes, for notices
}

// header is everything of a section before its content.
func (s section) header(baseline bool) string {
	switch s.action {
	case ActionReplace:
		h := "Updated instructions from: " + s.path + "\nThis is the complete current content; it replaces what was loaded for this scope before."
		if s.previous != "" {
			h += " It takes over from " + s.previous + ", whose instructions no longer apply."
		}
		return h + "\n"
	case ActionRemove:
		return "Instructions removed: " + s.path + "\nThe instructions previously loaded from this file no longer apply.\n"
	}
	if baseline {
		return "Instructions from: " + s.path + "\n"
	}
	return "Additional instructions from: " + s.path + "\n"
}

// rendered is the result of fitting sections into a budget.
type rendered struct {
	text      string
	first     int // sections[first:] are included
	shown     int // content bytes of the last section when truncated
	truncated bool
}

// render frames sections (broadest first) into one message of at most
// budget bytes. Broader sections are dropped before the most specific one is
// cut; a notice names whatever was dropped or cut. When not even a notice
// fits, the text is empty.
func render(baseline bool, secs []section, budget int) rendered {
	intro := changeIntro
	if baseline {
		intro = baselineIntro
	}
	for first := 0; first <= len(secs); first++ {
		kept := secs[first:]
		text := assemble(intro, baseline, kept, -1, notice(budget, secs[:first], nil, 0))
		if len(text) <= budget {
			return rendered{text: text, first: first}
		}
		if len(kept) == 1 && kept[0].content != "" {
			if r, ok := truncateLast(intro, baseline, secs, first, budget); ok {
				return r
			}
		}
	}
	return rendered{first: len(secs)}
}

// truncateLast cuts the single remaining section's content so the whole
// message, including a notice that states the shown byte count, fits.
func truncateLast(intro string, baseline bool, secs []section, first, budget int) (rendered, bool) {
	last := secs[first]
	omitted := secs[:first]
	shown := len(last.content)
	for range 8 { // converges in two rounds: only the digit count moves
		// +1: the newline assemble adds after content that lacks one.
		frame := len(assemble(intro, baseline, secs[first:], 0, notice(budget, omitted, &last, shown))) + 1
		avail := budget - frame
		if avail <= 0 {
			return rendered{}, false
		}
		if avail >= shown {
			break
		}
		shown = avail
	}
	cut := cutUTF8(last.content, shown)
	if len(cut) == 0 {
		return rendered{}, false
	}
	text := assemble(intro, baseline, secs[first:], len(cut), notice(budget, omitted, &last, len(cut)))
	if len(text) > budget {
		return rendered{}, false
	}
	return rendered{text: text, first: first, shown: len(cut), truncated: true}, true
}

// assemble joins the frame; limit ≥ 0 cuts the last section's content.
func assemble(intro string, baseline bool, kept []section, limit int, note string) string {
	var b strings.Builder
	b.WriteString(openTag)
	b.WriteString(intro)
	for i, s := range kept {
		b.WriteString("\n")
		b.WriteString(s.header(baseline))
		c := s.content
		if limit >= 0 && i == len(kept)-1 {
			c = cutUTF8(c, limit)
		}
		if c != "" {
			b.WriteString(c)
			if !strings.HasSuffix(c, "\n") {
				b.WriteString("\n")
			}
		}
	}
	if note != "" {
		b.WriteString("\n")
		b.WriteString(note)
	}
	b.WriteString(closeTag)
	return b.String()
}

// notice describes what the budget did, or is empty when it did nothing.
func notice(budget int, omitted []section, cut *section, shown int) string {
	if len(omitted) == 0 && cut == nil {
		return ""
	}
	var parts []string
	for _, s := range omitted {
		if s.action == ActionRemove {
			parts = append(parts, "omitted the removal notice for "+s.path)
		} else {
			parts = append(parts, fmt.Sprintf("omitted %s (%d bytes)", s.path, s.size))
		}
	}
	if cut != nil {
		parts = append(parts, fmt.Sprintf("truncated %s to its first %d of %d bytes", cut.path, shown, cut.size))
	}
	return fmt.Sprintf("Workspace instruction budget of %d bytes reached: %s.\n", budget, strings.Join(parts, "; "))
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// split a character.
func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// escape makes text safe to place inside the reminder frame: invalid UTF-8
// is replaced (so JSON encoding cannot change byte counts) and every closing
// tag, in any letter case, is defused. Any prefix of the result is also free
// of closing tags, so truncation cannot reintroduce one.
func escape(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	const tag = "</system-reminder"
	if !strings.Contains(strings.ToLower(s), tag) {
		return s
	}
	var b strings.Builder
	for {
		i := indexFold(s, tag)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(`<\/`)
		s = s[i+2:]
	}
}

// indexFold is a case-insensitive strings.Index for an ASCII lower-case needle.
func indexFold(s, needle string) int {
	for i := 0; i+len(needle) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(needle)], needle) {
			return i
		}
	}
	return -1
}
