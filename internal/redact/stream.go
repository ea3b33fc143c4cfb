package redact

import "strings"

// Stream hides the known secrets in a text that leaves in pieces (a
// model's reply streamed to the editor), where a secret may be split
// across two pieces and neither half matches on its own. It holds back,
// from each piece, only a tail that could be the start of a secret, and
// sends it with the next piece: at most the longest form's length minus
// one, and nothing at all when no tail could start one. The zero Stream
// and one of a nil Redactor pass pieces through. Not safe for concurrent
// use: one owner per stream.
type Stream struct {
	r    *Redactor
	held string // redacted text not yet given out
}

// Stream starts a stream of pieces.
func (r *Redactor) Stream() Stream { return Stream{r: r} }

// Next returns what of the stream can leave now, redacted: the held tail
// and piece, less a new tail that could start a secret.
func (st *Stream) Next(piece string) string {
	t := st.r.load()
	if t == nil {
		return st.held + piece
	}
	s := t.replace(st.held + piece)
	k := t.openTail(s)
	st.held = s[len(s)-k:]
	return s[:len(s)-k]
}

// Flush returns the held tail (the stream ended, or something else must
// leave first) and empties it.
func (st *Stream) Flush() string {
	h := st.held
	st.held = ""
	if t := st.r.load(); t != nil && h != "" {
		return t.replace(h)
	}
	return h
}

// openTail is the length of the longest tail of s that is a proper prefix
// of a known form: text that the next piece may complete into a secret.
func (t *table) openTail(s string) int {
	for i := max(0, len(s)-t.longest+1); i < len(s); i++ {
		tail := s[i:]
		for _, f := range t.byFirst[s[i]] {
			if len(f) > len(tail) && strings.HasPrefix(f, tail) {
				return len(tail)
			}
		}
	}
	return 0
}
