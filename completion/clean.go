package completion

import (
	"strings"
)

// shape is what kind of suggestion fits at the cursor.
type shape struct {
	multiLine bool
	maxLines  int
	// restOfLine is the current line after the cursor; nextLine the first
	// non-blank line of the suffix after it. A suggestion that reaches
	// either is cut there: the model is retyping what follows.
	restOfLine string
	nextLine   string
}

// shapeAt decides single- or multi-line: multi-line where the rest of the
// line holds nothing but closing brackets and blanks (the end of a line,
// before a closing paren the editor inserted), single-line mid-line.
func shapeAt(after string, maxLines int) shape {
	rest, tail, _ := strings.Cut(after, "\n")
	rest = strings.TrimRight(rest, "\r")
	s := shape{maxLines: maxLines, restOfLine: strings.TrimSpace(rest)}
	s.multiLine = strings.Trim(rest, " \t)]};,") == ""
	for line := range strings.Lines(tail) {
		if t := strings.TrimSpace(line); t != "" {
			s.nextLine = t
			break
		}
	}
	return s
}

// maxAnswer caps the bytes kept of one answer: a server that ignores the
// token limit (or never sends a line break) is cut off there.
const maxAnswer = 16 << 10

// collector gathers a streamed answer and says when enough has come: a
// complete line in single-line mode, maxLines lines in multi-line mode,
// or a line that repeats the code after the cursor. It keeps only what is
// used, so the wire can stop reading early.
type collector struct {
	shape
	b    strings.Builder
	done bool
}

// add appends a chunk and reports whether the stream should go on.
func (c *collector) add(chunk string) bool {
	if c.done {
		return false
	}
	c.b.WriteString(chunk[:min(len(chunk), maxAnswer-c.b.Len())])
	text := c.b.String()
	if len(text) >= maxAnswer {
		c.done = true
		return false
	}
	lines := strings.Count(text, "\n")
	switch {
	case !c.multiLine && strings.Contains(text, "\n"):
		c.done = true
	case c.multiLine && lines >= c.maxLines+1:
		c.done = true
	case c.multiLine && c.nextLine != "" && repeatsNext(text, c.nextLine):
		c.done = true
	}
	return !c.done
}

// repeatsNext reports whether a complete line of text (after the first)
// is the suffix's next line.
func repeatsNext(text, next string) bool {
	lines := strings.Split(text, "\n")
	if len(lines) < 3 {
		return false
	}
	for _, l := range lines[1 : len(lines)-1] {
		if strings.TrimSpace(l) == next {
			return true
		}
	}
	return false
}

// result is the suggestion the collected answer makes: fences a chat
// model added removed, cut to its shape, no text the document already
// has after the cursor, no trailing blank lines.
func (c *collector) result() string {
	text := stripFences(c.b.String())
	if !c.multiLine {
		text, _, _ = strings.Cut(text, "\n")
	} else {
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			if i > 0 && c.nextLine != "" && strings.TrimSpace(l) == c.nextLine {
				lines = lines[:i]
				break
			}
		}
		if len(lines) > c.maxLines {
			lines = lines[:c.maxLines]
		}
		text = strings.Join(lines, "\n")
	}
	text = strings.TrimRight(text, " \t\r\n")
	if c.restOfLine != "" {
		// The model closed what the editor had already closed.
		text = strings.TrimSuffix(text, c.restOfLine)
	}
	return text
}

// stripFences removes a Markdown code fence around a chat model's answer.
func stripFences(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "```") {
		return s
	}
	_, body, ok := strings.Cut(t, "\n")
	if !ok {
		return ""
	}
	if i := strings.LastIndex(body, "```"); i >= 0 {
		body = body[:i]
	}
	return strings.TrimRight(body, "\n")
}
