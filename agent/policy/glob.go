package policy

import (
	"path"
	"strings"

	"github.com/tandemhq/tandem/internal/pathx"
)

// matchGlob reports whether the slash-separated relative path rel matches
// pattern, gitignore style: each segment is a path.Match pattern (so * and
// ? never cross a slash), "**" spans zero or more directories, and a
// trailing "**" needs at least one segment, so "src/**" is what lies
// under src/ and not a file named src. Names compare as the OS's path
// rule r says: case-insensitively on macOS and Windows, whose file
// systems open SRC/a.go for src/a.go (a deny rule must not be dodged by
// spelling; an allow rule then covers what it names however spelled).
func matchGlob(pattern, rel string, r pathx.Rule) bool {
	pat, segs := strings.Split(pattern, "/"), strings.Split(rel, "/")
	for i, s := range segs {
		segs[i] = r.Key(s)
	}
	if r.Fold {
		// Lower case leaves path.Match's syntax as it is, and turns a
		// class such as [A-Z] into the [a-z] the folded names need.
		for i, p := range pat {
			pat[i] = strings.ToLower(p)
		}
	}
	return matchSegments(pat, segs)
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
