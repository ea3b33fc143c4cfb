package edits

import "fmt"

// Position is a place in a document as LSP names it: a zero-based line and
// a zero-based offset in code units of the negotiated Encoding. The field
// types match go.lsp.dev/protocol, so protocol.Position(p) converts.
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// Range is the half-open span [Start, End).
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// TextEdit replaces Range with NewText. It marshals to LSP's TextEdit, and
// an LSP didChange content change with a range is the same thing.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

func (p Position) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Character) }
func (r Range) String() string    { return fmt.Sprintf("%v-%v", r.Start, r.End) }

// TextEdits returns the edits that turn old into new, with positions in enc
// counted against old. They are sorted, do not overlap or touch, and are
// small: lines are matched first, then the changed lines character by
// character. No range boundary falls inside a rune, a surrogate pair or a
// "\r\n". Apply(old, TextEdits(old, new, enc), enc) == new.
func TextEdits(old, new string, enc Encoding) []TextEdit {
	return NewMapper(old, enc).EditsTo(new)
}

// EditsTo is TextEdits from m's text, reusing its line index: the LSP
// server keeps a Mapper per open document and diffs the agent's new content
// against it.
func (m *Mapper) EditsTo(new string) []TextEdit {
	spans := diffSpans(m.text, new)
	out := make([]TextEdit, 0, len(spans))
	for _, s := range spans {
		// Spans come from m.text itself, so the offsets are in range.
		r, _ := m.Range(s.oldStart, s.oldEnd)
		out = append(out, TextEdit{Range: r, NewText: new[s.newStart:s.newEnd]})
	}
	return out
}
