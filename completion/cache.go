package completion

import (
	"hash/maphash"
	"strings"
)

// anchorBytes is how much text on each side of the cursor identifies
// where a suggestion was made. Hashes of it, not the text, are kept, so a
// document's cache costs a few dozen bytes plus its suggestions.
const anchorBytes = 512

// cacheEntries is how many suggestions a document keeps.
const cacheEntries = 4

// anchor is where a suggestion was asked for: the cursor's offset and
// the text around it.
type anchor struct {
	at     int // len(Before)
	before uint64
	after  uint64
}

func anchorOf(seed maphash.Seed, before, after string) anchor {
	return anchor{
		at:     len(before),
		before: maphash.String(seed, before[max(0, len(before)-anchorBytes):]),
		after:  maphash.String(seed, after[:min(len(after), anchorBytes)]),
	}
}

// typed returns what was typed since a, when before and after continue
// the text a was taken at (the user typed on at the cursor).
func (a anchor) typed(seed maphash.Seed, before, after string) (string, bool) {
	if len(before) < a.at || maphash.String(seed, after[:min(len(after), anchorBytes)]) != a.after {
		return "", false
	}
	if maphash.String(seed, before[max(0, a.at-anchorBytes):a.at]) != a.before {
		return "", false
	}
	return before[a.at:], true
}

// entry is one suggestion made at an anchor.
type entry struct {
	anchor
	text string
}

// narrow returns what is left of e's suggestion after typed, if typed
// follows it and something is left.
func (e *entry) narrow(typed string) (string, bool) {
	if !strings.HasPrefix(e.text, typed) || len(typed) == len(e.text) {
		return "", false
	}
	return e.text[len(typed):], true
}

// suggestions is a document's cache, newest first.
type suggestions []entry

func (s *suggestions) add(e entry) {
	if e.text == "" {
		return
	}
	*s = append(suggestions{e}, (*s)...)
	if len(*s) > cacheEntries {
		*s = (*s)[:cacheEntries]
	}
}

// lookup finds a suggestion the text at the cursor continues.
func (s suggestions) lookup(seed maphash.Seed, before, after string) (string, bool) {
	for i := range s {
		if typed, ok := s[i].typed(seed, before, after); ok {
			if rest, ok := s[i].narrow(typed); ok {
				return rest, true
			}
		}
	}
	return "", false
}

// size is the bytes the cache holds.
func (s suggestions) size() int {
	n := 0
	for _, e := range s {
		n += len(e.text) + 40
	}
	return n
}
