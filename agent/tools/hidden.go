package tools

import (
	"context"
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

// RepoMap renders ix's repository map as ix.Map does, except that the
// files hidden names (Env.Hidden: a deny rule refuses reading them) are
// left out of it entirely: their paths and definitions are not shown and
// their references rank nothing. With hidden nil it is ix.Map. The
// repo_map tool and a session's first request both render through it.
func RepoMap(ctx context.Context, ix *codeindex.Index, hidden func(string) bool, opts codeindex.MapOptions) (string, error) {
	m, err := ix.Map(ctx, opts) // also brings the index and its references up to date
	if err != nil || hidden == nil {
		return m, err
	}
	root := ix.Root()
	all := ix.Files(root)
	files := visibleFiles(hidden, root, all)
	if len(files) == len(all) {
		return m, nil
	}
	var focus []string
	for _, p := range opts.Focus {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		if rel, ok := within(root, p); ok {
			focus = append(focus, filepath.ToSlash(rel))
		}
	}
	return codeindex.RenderMap(files, focus, opts.Tokens), nil
}
