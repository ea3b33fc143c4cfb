package tools

import (
	"strings"
	"unicode/utf8"
)

// binarySniffLen is how much of a file the binary heuristic looks at;
// enough to catch every common binary header, small enough to be free.
const binarySniffLen = 8000

// looksBinary guesses whether content is not text: a NUL byte near the
// start, or many bytes that are not UTF-8. A few stray invalid bytes (a
// Latin-1 comment) still count as text.
func looksBinary(content string) bool {
	sample := content
	if len(sample) > binarySniffLen {
		sample = sample[:binarySniffLen]
	}
	if strings.IndexByte(sample, 0) >= 0 {
		return true
	}
	if utf8.ValidString(sample) {
		return false
	}
	bad, total := 0, 0
	for i := 0; i < len(sample); {
		r, size := utf8.DecodeRuneInString(sample[i:])
		if r == utf8.RuneError && size == 1 && len(sample)-i >= utf8.UTFMax {
			bad++
		}
		total++
		i += size
	}
	return bad*10 > total // more than 10% invalid
}

// truncateRunes cuts s to at most n bytes at a rune boundary, reporting
// whether it cut.
func truncateRunes(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// splitLines splits text into lines without their terminators ("\n" or
// "\r\n"). A final newline does not start another line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// isCRLF reports whether most of content's line breaks are "\r\n": the
// convention an edit must keep. A mostly-LF file with a stray CRLF stays
// LF (fuzzyReplace still keeps a matched CRLF line's ending).
func isCRLF(content string) bool {
	n := strings.Count(content, "\n")
	return n > 0 && 2*strings.Count(content, "\r\n") > n
}

// toCRLF writes every line break of s as "\r\n", whether s used "\n",
// "\r\n" or a mix.
func toCRLF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}
