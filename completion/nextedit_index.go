package completion

import (
	"context"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tandemhq/tandem/codeindex"
)

// maxScanned caps the files RelatedFiles reads when the index has no
// references for them: the nearest ones to the document.
const maxScanned = 200

// RelatedFiles lists up to limit files of ix (absolute paths, near's own
// left out) that use one of names: by the index's references where it has
// them, then the files defining a name, then by reading the files nearest
// to near (its directory first) that the index holds without references,
// at most maxScanned of them, through read. The index lists only files
// git or .gitignore do not exclude.
func RelatedFiles(ix *codeindex.Index, near string, names []string, limit int, read func(string) (string, bool)) []string {
	var out []string
	add := func(rel string) {
		p := filepath.Join(ix.Root(), filepath.FromSlash(rel))
		if len(out) < limit && p != near && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	files := ix.Files("")
	var unreferenced []*codeindex.File
	for _, f := range files {
		if !f.HasRefs {
			unreferenced = append(unreferenced, f)
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
	if read == nil || len(out) >= limit {
		return out
	}
	dir := filepath.ToSlash(filepath.Dir(near))
	if rel, err := filepath.Rel(ix.Root(), filepath.Dir(near)); err == nil {
		dir = filepath.ToSlash(rel)
	}
	sort.SliceStable(unreferenced, func(a, b int) bool {
		return shared(dir, unreferenced[a].Path) > shared(dir, unreferenced[b].Path)
	})
	for i, f := range unreferenced {
		if i >= maxScanned || len(out) >= limit {
			break
		}
		if f.Size > maxFileBytes {
			continue
		}
		text, ok := read(filepath.Join(ix.Root(), filepath.FromSlash(f.Path)))
		if !ok {
			continue
		}
		for _, n := range names {
			if indexWord(text, n) >= 0 {
				add(f.Path)
				break
			}
		}
	}
	return out
}

// shared counts the leading directories path (slash-separated, relative)
// has in common with dir.
func shared(dir, path string) int {
	d := strings.Split(dir, "/")
	p := strings.Split(path, "/")
	p = p[:len(p)-1]
	n := 0
	for n < len(d) && n < len(p) && d[n] == p[n] {
		n++
	}
	return n
}

// IndexRelated is a NextEdit.Related that finds the files in the index of
// the root, which index returns (building it on first use, within ctx),
// reading files through read.
func IndexRelated(index func(ctx context.Context, root string) (*codeindex.Index, error), read func(string) (string, bool)) func(context.Context, string, string, []string) []string {
	return func(ctx context.Context, root, near string, names []string) []string {
		if root == "" {
			return nil
		}
		ix, err := index(ctx, root)
		if err != nil {
			return nil
		}
		return RelatedFiles(ix, near, names, maxRelated, read)
	}
}
