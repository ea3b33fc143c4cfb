package filelist

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// Ignored reports whether the .gitignore files from root down to the
// file's directory (and the work tree's .git/info/exclude) ignore rel, a
// slash-separated path below root, by the same patterns a walk applies.
// It reads those files on each call; callers that ask often keep the
// answer. Unlike a git listing it does not know which ignored files are
// tracked: it answers what the ignore rules say, which is what a caller
// keeping ignored files private wants.
func Ignored(root, rel string) bool {
	parts := strings.Split(rel, "/")
	var patterns []gitignore.Pattern
	if ig, err := loadExclude(root); err == nil {
		patterns = append(patterns, ig...)
	}
	for i := range len(parts) {
		dir := filepath.Join(root, filepath.FromSlash(strings.Join(parts[:i], "/")))
		if ig, err := loadIgnore(dir, slices.Clone(parts[:i]), nil); err == nil {
			patterns = append(patterns, ig.patterns...)
		}
	}
	return gitignore.NewMatcher(patterns).Match(parts, false)
}

// loadExclude reads root/.git/info/exclude, the work tree's own ignore
// rules, which a git listing honours too.
func loadExclude(root string) ([]gitignore.Pattern, error) {
	ig, err := loadIgnoreFile(filepath.Join(root, ".git", "info", "exclude"), nil, nil)
	if err != nil {
		return nil, err
	}
	return ig.patterns, nil
}
