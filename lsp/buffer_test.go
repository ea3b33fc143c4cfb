package lsp

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/edits"
)

// TestBufferMatchesMapper applies random edits to a buffer and to
// edits.Mapper (the reference) and compares text, line index and position
// conversion after every edit, across line endings and wide characters.
func TestBufferMatchesMapper(t *testing.T) {
	pieces := []string{"a", "bc", "\n", "\r\n", "\r", "😀", "日本", "é", " ", "\n\n", "\r\r\n"}
	random := func(r *rand.Rand, n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	for _, enc := range []edits.Encoding{edits.UTF16, edits.UTF8} {
		for seed := range uint64(200) {
			r := rand.New(rand.NewPCG(seed, 7))
			text := random(r, r.IntN(30))
			buf := newBuffer(text, enc)
			ref := edits.NewMapper(text, enc)
			for step := range 30 {
				lines := ref.LineCount()
				p := func() edits.Position {
					return edits.Position{Line: uint32(r.IntN(lines + 1)), Character: uint32(r.IntN(6))}
				}
				a, b := p(), p()
				if b.Line < a.Line || b.Line == a.Line && b.Character < a.Character {
					a, b = b, a
				}
				rng := edits.Range{Start: a, End: b}
				ins := random(r, r.IntN(4))
				next, refErr := applyOne(ref, rng, ins, enc)
				bufErr := buf.apply(rng, ins)
				if (refErr == nil) != (bufErr == nil) {
					// An inverted range after clamping: both must refuse.
					t.Fatalf("%s seed %d step %d: %v: mapper err %v, buffer err %v", enc, seed, step, rng, refErr, bufErr)
				}
				if refErr != nil {
					continue
				}
				ref = next
				if buf.String() != ref.Text() {
					t.Fatalf("%s seed %d step %d: text %q, want %q", enc, seed, step, buf.String(), ref.Text())
				}
				if len(buf.lines) != ref.LineCount() {
					t.Fatalf("%s seed %d step %d: %d lines %v, want %d for %q", enc, seed, step, len(buf.lines), buf.lines, ref.LineCount(), ref.Text())
				}
				for l := range ref.LineCount() + 1 {
					for c := range 6 {
						pos := edits.Position{Line: uint32(l), Character: uint32(c)}
						want, _ := ref.Offset(pos)
						got, err := buf.offset(pos)
						if err != nil || got != want {
							t.Fatalf("%s seed %d step %d: offset(%v) = %d, %v; want %d in %q", enc, seed, step, pos, got, err, want, ref.Text())
						}
					}
				}
			}
		}
	}
}

// applyOne is the reference for one didChange content change: the text
// spliced and indexed again from scratch.
func applyOne(m *edits.Mapper, r edits.Range, s string, enc edits.Encoding) (*edits.Mapper, error) {
	start, end, err := m.Offsets(r)
	if err != nil {
		return nil, err
	}
	t := m.Text()
	return edits.NewMapper(t[:start]+s+t[end:], enc), nil
}
