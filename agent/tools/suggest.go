package tools

import (
	"fmt"
	"strings"

	"github.com/tandemhq/tandem/internal/editdist"
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
		if d := editdist.Levenshtein(name, k); d < bestDist {
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
