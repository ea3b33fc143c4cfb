package codeindex

import (
	"context"
	"errors"
	"fmt"

	"github.com/tandemhq/tandem/internal/filelist"
	"github.com/tandemhq/tandem/treesitter"
)

// indexable reports whether a file name selects a registered language.
func indexable(name string) bool { return treesitter.ForPath(name) != nil }

// dirCache remembers directory listings between walks; owned by one Index
// and used under its refreshMu.
type dirCache = filelist.Cache

func newDirCache() *dirCache { return filelist.NewCache() }

// listOptions select the root's source files; dirs may be nil. Symbolic
// links are left out of walks and git's deleted paths are not checked here:
// the refresh stats every path and drops what is not a regular file.
func listOptions(dirs *dirCache) filelist.Options {
	return filelist.Options{Skip: filelist.SkipDirs(), Keep: indexable, Cache: dirs}
}

// listFiles returns the root's source files as sorted slash-separated
// relative paths. Inside a git work tree git decides what is ignored; else
// the tree is walked honouring every .gitignore on the way down, and
// directories that cannot be read are named in problems.
func listFiles(ctx context.Context, root string, dirs *dirCache) (files []string, problems []string, err error) {
	res, err := filelist.List(ctx, root, listOptions(dirs))
	return res.Files, problemText(res.Problems), err
}

// problemText describes unreadable directories for the log and Stats.
func problemText(ps []filelist.Problem) []string {
	var out []string
	for _, p := range ps {
		dir := p.Dir
		if dir == "" {
			dir = "."
		}
		out = append(out, fmt.Sprintf("%s: %v", dir, errors.Unwrap(p.Err)))
	}
	return out
}
