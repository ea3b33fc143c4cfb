package tools

import (
	"path/filepath"

	"github.com/tandemhq/tandem/codeindex"
)

// visible drops from rels (slash paths relative to root) the files
// env.Hidden names, so a directory search cannot read what a rule denies
// reading one file at a time.
func (env *Env) visible(root string, rels []string) []string {
	if env.Hidden == nil {
		return rels
	}
	out := rels[:0:0]
	for _, rel := range rels {
		if !env.Hidden(filepath.Join(root, filepath.FromSlash(rel))) {
			out = append(out, rel)
		}
	}
	return out
}

// visibleFiles is visible for index entries, whose paths are relative to
// the index root.
func visibleFiles(hidden func(string) bool, root string, files []*codeindex.File) []*codeindex.File {
	if hidden == nil {
		return files
	}
	out := files[:0:0]
	for _, f := range files {
		if !hidden(filepath.Join(root, filepath.FromSlash(f.Path))) {
			out = append(out, f)
		}
	}
	return out
}
