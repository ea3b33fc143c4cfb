package completion

import (
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// changedNames returns the identifiers an edit removed (in Old, not in New)
// and added. A rename removes the old name: its other uses are where the
// edit carries next.
func changedNames(c Change) (gone, added []string) {
	before, after := wordsOf(c.Old), wordsOf(c.New)
	for _, n := range before {
		if !slices.Contains(after, n) {
			gone = append(gone, n)
		}
	}
	for _, n := range after {
		if !slices.Contains(before, n) {
			added = append(added, n)
		}
	}
	return gone, added
}

// wordsOf lists the distinct words of s that could name something: a
// letter or underscore, then letters, digits and underscores; two runes
// at least.
func wordsOf(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isIdentStart(r) {
			i += n
			continue
		}
		j := i + n
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !isIdentPart(r) {
				break
			}
			j += n
		}
		if w := s[i:j]; utf8.RuneCountInString(w) >= 2 && !slices.Contains(out, w) {
			out = append(out, w)
		}
		i = j
	}
	return out
}

func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool  { return isIdentStart(r) || unicode.IsDigit(r) }

// indexWord is the index of the first use of name in s as a whole word, or
// -1.
func indexWord(s, name string) int {
	for at := 0; ; {
		i := strings.Index(s[at:], name)
		if i < 0 {
			return -1
		}
		i += at
		end := i + len(name)
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (i == 0 || !isIdentPart(before)) && (end == len(s) || !isIdentPart(after)) {
			return i
		}
		at = i + 1
	}
}

// pairedFiles are the files that test path, or that path tests, by the
// naming conventions of the common languages: x.go and x_test.go,
// x.ts and x.test.ts or x.spec.ts, x.py and test_x.py.
func pairedFiles(path string) []string {
	dir, base := filepath.Split(path)
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	var names []string
	switch {
	case strings.HasSuffix(stem, "_test"):
		names = []string{strings.TrimSuffix(stem, "_test") + ext}
	case strings.HasSuffix(stem, ".test"), strings.HasSuffix(stem, ".spec"):
		names = []string{stem[:len(stem)-5] + ext}
	case strings.HasPrefix(stem, "test_"):
		names = []string{strings.TrimPrefix(stem, "test_") + ext}
	default:
		names = []string{stem + "_test" + ext, stem + ".test" + ext, stem + ".spec" + ext, "test_" + stem + ext}
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join(dir, n)
	}
	return out
}
