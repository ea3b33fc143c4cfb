package tools

import "path/filepath"

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
