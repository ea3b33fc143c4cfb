package edits

import "unicode/utf8"

// Encoding names the code unit an LSP Position.Character counts. The values
// are LSP's PositionEncodingKind strings, so a negotiated kind converts with
// Encoding(kind). Any other value, the empty string included, means UTF-16:
// that is what LSP assumes when nothing was negotiated.
type Encoding string

const (
	UTF8  Encoding = "utf-8"
	UTF16 Encoding = "utf-16"
	UTF32 Encoding = "utf-32"
)

// normal folds unknown and empty encodings into UTF-16 so every switch below
// has exactly three cases.
func (e Encoding) normal() Encoding {
	switch e {
	case UTF8, UTF32:
		return e
	}
	return UTF16
}

// width is how many units of e the text at s[i:] starts with, and how many
// bytes that is. A byte that is not valid UTF-8 is one unit in every
// encoding: one byte in UTF-8, and one U+FFFD where an editor decodes it.
func (e Encoding) width(s string, i int) (units, size int) {
	if c := s[i]; c < utf8.RuneSelf {
		return 1, 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch e {
	case UTF8:
		return size, size
	case UTF32:
		return 1, size
	}
	if r >= 0x10000 {
		return 2, size // a surrogate pair
	}
	return 1, size
}

// unitsBefore is how many units of e the whole runes in s[:n] take. A rune
// that straddles n is left out, and n past the end of s means all of s.
func (e Encoding) unitsBefore(s string, n int) int {
	n = min(n, len(s))
	units := 0
	for i := 0; i < n; {
		u, size := e.width(s, i)
		if i+size > n {
			break
		}
		units += u
		i += size
	}
	return units
}

// advance walks s from its start by at most units units and returns the byte
// offset reached. It stops before a rune that would overshoot, so a
// Character pointing into a surrogate pair or a UTF-8 sequence lands on the
// start of that rune rather than splitting it.
func (e Encoding) advance(s string, units int) int {
	i := 0
	for i < len(s) && units > 0 {
		u, size := e.width(s, i)
		if u > units {
			break
		}
		units -= u
		i += size
	}
	return i
}
