package codeindex

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultMapTokens is the repository map's budget when none is configured.
const DefaultMapTokens = 1500

// bytesPerToken estimates tokens from bytes: close enough for code and
// English with the tokenizers in use, and cheap.
const bytesPerToken = 4

// maxMapDefs caps the definitions shown under one file: past a handful the
// budget is better spent on the next file.
const maxMapDefs = 8

// MapOptions select what a repository map shows.
type MapOptions struct {
	// Tokens is the budget (bytes/4); 0 or less means DefaultMapTokens.
	Tokens int
	// Focus are files or directories (absolute, or relative to the root)
	// the conversation is about: ranking is personalised toward them.
	// Paths outside the root or not indexed are ignored.
	Focus []string
	// PathPrefix is written before every file path (with its trailing
	// slash), so a map of a root other than the one paths are relative to
	// names files the way the reader's tools take them.
	PathPrefix string
	// Hidden, when set, names files (by absolute path) the reader may not
	// see: they are left out entirely, their paths and definitions not
	// shown and their references ranking nothing.
	Hidden func(abs string) bool
}

// Map brings the index up to date and renders its repository map.
func (ix *Index) Map(ctx context.Context, opts MapOptions) (string, error) {
	snap, err := ix.mapSnapshot(ctx)
	if err != nil {
		return "", err
	}
	var focus []string
	for _, p := range opts.Focus {
		if rel, ok := ix.rel(p); ok {
			focus = append(focus, rel)
		}
	}
	g := snap.refGraph()
	if opts.Hidden != nil {
		if files := ix.Visible(g.files, opts.Hidden); len(files) < len(g.files) {
			g = buildGraph(files)
		}
	}
	return renderMap(g, focus, opts.Tokens, opts.PathPrefix), nil
}

// Visible is files (entries of ix) without those hidden names by absolute
// path; all of them when hidden is nil.
func (ix *Index) Visible(files []*File, hidden func(abs string) bool) []*File {
	if hidden == nil {
		return files
	}
	out := files[:0:0]
	for _, f := range files {
		if !hidden(filepath.Join(ix.root, filepath.FromSlash(f.Path))) {
			out = append(out, f)
		}
	}
	return out
}

// RenderMap ranks files (sorted by path, as Files returns them) and renders
// the map within tokens; focus holds root-relative slash paths. It is Map
// without an index, for files built some other way.
func RenderMap(files []*File, focus []string, tokens int) string {
	return renderMap(buildGraph(files), focus, tokens, "")
}

func renderMap(g *refGraph, focus []string, tokens int, prefix string) string {
	if tokens <= 0 {
		tokens = DefaultMapTokens
	}
	n := len(g.files)
	if n == 0 {
		return ""
	}
	marks := make([]bool, n)
	for i, f := range g.files {
		for _, p := range focus {
			if p == "." || f.Path == p || strings.HasPrefix(f.Path, strings.TrimSuffix(p, "/")+"/") {
				marks[i] = true
			}
		}
	}
	rk := g.rank(personalise(n, marks))
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Ties (files nothing refers to) keep path order, so the map is stable.
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rk.file[b], rk.file[a]) })
	limit := tokens * bytesPerToken
	var out strings.Builder
	for _, fi := range order {
		f := g.files[fi]
		defs := mapDefs(f, rk.def[fi])
		if len(defs) == 0 {
			continue
		}
		block := mapBlock(f, defs, prefix)
		if out.Len()+len(block) > limit {
			// The whole block does not fit; its best definition alone may.
			block = mapBlock(f, defs[:1], prefix)
			if out.Len()+len(block) > limit {
				break
			}
		}
		out.WriteString(block)
	}
	return out.String()
}

// mapDefs picks the definitions to show for one file, best first: those
// other files refer to, by the rank that reached them; a file nobody refers
// to shows its first top-level definitions.
func mapDefs(f *File, score []float64) []int {
	var picked []int
	for i := range f.Defs {
		if score[i] > 0 {
			picked = append(picked, i)
		}
	}
	if len(picked) == 0 {
		for i := range f.Defs {
			if f.Defs[i].Depth == 0 && rankable(&f.Defs[i]) && len(picked) < 3 {
				picked = append(picked, i)
			}
		}
		return picked
	}
	slices.SortStableFunc(picked, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
	return picked[:min(len(picked), maxMapDefs)]
}

// mapBlock is one file's entry: its path, then the chosen definitions'
// signature lines in source order, each after its line number.
func mapBlock(f *File, defs []int, prefix string) string {
	defs = slices.Clone(defs)
	slices.Sort(defs)
	var b strings.Builder
	b.WriteString(prefix + f.Path + "\n")
	for _, i := range defs {
		d := &f.Defs[i]
		fmt.Fprintf(&b, "%s%d | %s\n", strings.Repeat("  ", d.Depth+1), d.Start, d.Signature)
	}
	return b.String()
}
