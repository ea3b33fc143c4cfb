package completion

import (
	"context"
	"path/filepath"
	"slices"

	"github.com/tandemhq/tandem/codeindex"
)

// RelatedFiles lists up to limit files of ix (absolute paths) that use
// one of names (the index's references, where it has them) or define it.
// The index lists only files git or .gitignore do not exclude.
func RelatedFiles(ix *codeindex.Index, names []string, limit int) []string {
	var out []string
	add := func(rel string) {
		p := filepath.Join(ix.Root(), filepath.FromSlash(rel))
		if len(out) < limit && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, f := range ix.Files("") {
		if !f.HasRefs {
			continue
		}
		for _, n := range names {
			if _, ok := slices.BinarySearch(f.Refs, n); ok {
				add(f.Path)
				break
			}
		}
	}
	for _, n := range names {
		for _, s := range ix.Search(n, codeindex.MatchExact, limit) {
			if s.Name == n {
				add(s.Path)
			}
		}
	}
	return out
}

// IndexRelated is a NextEdit.Related that finds the files in the index of
// the root, which index returns (building it on first use, within ctx).
func IndexRelated(index func(ctx context.Context, root string) (*codeindex.Index, error)) func(context.Context, string, []string) []string {
	return func(ctx context.Context, root string, names []string) []string {
		if root == "" {
			return nil
		}
		ix, err := index(ctx, root)
		if err != nil {
			return nil
		}
		return RelatedFiles(ix, names, maxRelated)
	}
}
