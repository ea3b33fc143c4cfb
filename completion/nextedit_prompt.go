package completion

import (
	"fmt"
	"strings"
)

// nextEditSystem is the next-edit prompt's fixed part: the same bytes for
// every request, so servers that cache a prompt's prefix reuse it.
const nextEditSystem = `You predict the next edit a programmer will make in their code, from the edits they have just made.

Look at the recent edits and the file excerpts. If the recent edits call for a follow-up (a renamed name still used elsewhere, a changed signature whose callers or tests do not match yet, a repeated pattern half done), answer with that edit. Otherwise answer exactly:
NONE

Write an edit as one or more blocks of exactly this form and nothing else:
<<<<<<< SEARCH path/of/the/file
lines copied exactly from one excerpt of that file
=======
the lines that replace them
>>>>>>> REPLACE

Rules:
- The SEARCH lines must be whole lines copied character for character from an excerpt shown below, and must occur only once in the file: copy enough lines to make them unique.
- Keep each block small: only the lines that change and as few around them as needed.
- Never undo or repeat an edit the programmer already made.
- No explanations, no other text.`

// nextEditPrompt builds the system and user text of one request: the
// recent edits as diffs, oldest first, then each shown file's excerpts.
func nextEditPrompt(r NextEditRequest, files []*shownFile) (system, user string) {
	var b strings.Builder
	b.WriteString("Recent edits, oldest first:\n\n")
	for _, c := range r.Recent {
		writeChange(&b, displayName(r.Root, c.Path), c)
	}
	cursorLine := strings.Count(r.Text[:min(max(r.Cursor, 0), len(r.Text))], "\n")
	fmt.Fprintf(&b, "The cursor is on line %d of %s.\n\n", cursorLine+1, files[0].name)
	for _, f := range files {
		for _, s := range f.spans {
			first := strings.Count(f.text[:s[0]], "\n") + 1
			last := first + max(lineCount(f.text[s[0]:s[1]])-1, 0)
			fmt.Fprintf(&b, "Excerpt of %s, lines %d-%d:\n", f.name, first, last)
			writeFenced(&b, f.text[s[0]:s[1]])
		}
	}
	b.WriteString("Your answer (blocks or NONE):\n")
	return nextEditSystem, b.String()
}

// writeChange writes c as a unified diff hunk.
func writeChange(b *strings.Builder, name string, c Change) {
	fmt.Fprintf(b, "--- %s\n+++ %s\n@@ -%d,%d +%d,%d @@\n", name, name, c.Line+1, lineCount(c.Old), c.Line+1, lineCount(c.New))
	for _, l := range splitLines(c.Old) {
		b.WriteString("-" + strings.TrimRight(l, "\r\n") + "\n")
	}
	for _, l := range splitLines(c.New) {
		b.WriteString("+" + strings.TrimRight(l, "\r\n") + "\n")
	}
	b.WriteString("\n")
}

// writeFenced writes text in a code fence longer than any run of
// backticks inside it, so a file cannot close the fence early.
func writeFenced(b *strings.Builder, text string) {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	b.WriteString(fence + "\n")
	b.WriteString(strings.ReplaceAll(text, "\r\n", "\n"))
	if !strings.HasSuffix(text, "\n") {
		b.WriteString("\n")
	}
	b.WriteString(fence + "\n\n")
}
