package tools

import (
	"fmt"
	"strings"
)

// suggest is ` (did you mean "x"?)` when an unknown field name is close to
// a known one: the same letters ignoring case and separators (oldString,
// old-string), or at most two edits away (old_strng).
func suggest(name string, known []string) string {
	best, bestDist := "", 3
	if len(name) <= 4 {
		bestDist = 2 // one edit turns most short names into another word
	}
	for _, k := range known {
		if fold(k) == fold(name) {
			return fmt.Sprintf(" (did you mean %q?)", k)
		}
		if d := editDistance(name, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func fold(s string) string {
	return strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(s))
}

// editDistance is the Levenshtein distance between a and b, in bytes
// (field names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
