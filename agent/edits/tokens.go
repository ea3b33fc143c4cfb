package edits

import "unicode/utf8"

// tokens gives each distinct string its own rune so go-diff, which compares
// runes, can diff sequences of lines or of units. Runes are handed out in
// order, skipping the surrogate range, which is not valid in a Go string
// and would collapse to U+FFFD when go-diff converts runes to text.
type tokens struct {
	ids  map[string]rune
	next rune
}

func newTokens(hint int) *tokens {
	return &tokens{ids: make(map[string]rune, hint), next: 1}
}

// id returns the rune for s, or false when every rune is taken (more than
// about 1.1 million distinct strings).
func (t *tokens) id(s string) (rune, bool) {
	if r, ok := t.ids[s]; ok {
		return r, true
	}
	if t.next == 0xD800 {
		t.next = 0xE000
	}
	if t.next > utf8.MaxRune {
		return 0, false
	}
	r := t.next
	t.ids[s] = r
	t.next++
	return r, true
}

// encode turns the lines text[b[i]:b[i+1]] into one rune each.
func (t *tokens) encode(text string, b []int) ([]rune, bool) {
	out := make([]rune, len(b)-1)
	for i := range out {
		r, ok := t.id(text[b[i]:b[i+1]])
		if !ok {
			return nil, false
		}
		out[i] = r
	}
	return out, true
}

// unitRunes turns the units a[ua[i]:ua[i+1]] and b[ub[i]:ub[i+1]] into
// runes go-diff can compare. Valid UTF-8 maps to its own runes. If either
// side holds an invalid byte, both are tokenized instead, because go-diff
// reads every bad byte as U+FFFD and two different bad bytes would match.
func unitRunes(a string, ua []int, b string, ub []int) (ra, rb []rune, ok bool) {
	sa, sb := a[ua[0]:ua[len(ua)-1]], b[ub[0]:ub[len(ub)-1]]
	if utf8.ValidString(sa) && utf8.ValidString(sb) {
		return []rune(sa), []rune(sb), true
	}
	tok := newTokens(64)
	if ra, ok = tok.encode(a, ua); !ok {
		return nil, nil, false
	}
	rb, ok = tok.encode(b, ub)
	return ra, rb, ok
}
