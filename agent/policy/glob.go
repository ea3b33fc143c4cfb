package policy

import (
	"path"
	"strings"
)

// matchGlob reports whether the slash-separated relative path rel matches
// pattern, gitignore style: each segment is a path.Match pattern (so * and
// ? never cross a slash), "**" spans zero or more directories, and a
// trailing "**" needs at least one segment, so "src/**" is what lies
// under src/ and not a file named src.
func matchGlob(pattern, rel string) bool {
	return matchSegments(strings.Split(pattern, "/"), strings.Split(rel, "/"))
}

func matchSegments(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			if len(pat) == 1 {
				return len(segs) > 0
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegments(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], segs[0]); err != nil || !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
