package codeindex

import (
	"math"

	"github.com/tandemhq/tandem/treesitter"
)

// maxDefiners drops names that too many files define (String, Error, New,
// init): a reference to one of them says little about which file it means,
// and keeping them would link every file to hundreds of others.
const maxDefiners = 24

// defLoc is one definition: the file's index in the graph and the
// definition's index in that file.
type defLoc struct{ file, def int32 }

// refGraph links files by references: file a points at file b once for
// every name a uses that b defines (a != b). It is built from one snapshot
// and never changes.
type refGraph struct {
	files []*File
	// uses[f] are the names f refers to that some other file defines,
	// with the weight each link to a defining file carries.
	uses [][]use
	// defs[id] are the definitions carrying name id; definers[id] the
	// distinct files among them.
	defs     [][]defLoc
	definers [][]int32
	// out[f] are f's edges, weights summed per target; outSum[f] their total.
	out    [][]edge
	outSum []float64
}

type use struct {
	id int32
	w  float64
}

type edge struct {
	to int32
	w  float64
}

// rankable reports a definition worth linking to and listing: fields and
// deeper members are too many and too generic.
func rankable(d *treesitter.Definition) bool {
	return d.Kind != treesitter.KindField && d.Depth <= 1 && len(d.Name) >= 2
}

// buildGraph makes the reference graph of files (sorted by path).
func buildGraph(files []*File) *refGraph {
	g := &refGraph{files: files, uses: make([][]use, len(files)), out: make([][]edge, len(files)), outSum: make([]float64, len(files))}
	ids := make(map[string]int32)
	for fi, f := range files {
		for di := range f.Defs {
			d := &f.Defs[di]
			if !rankable(d) {
				continue
			}
			id, ok := ids[d.Name]
			if !ok {
				id = int32(len(g.defs))
				ids[d.Name] = id
				g.defs = append(g.defs, nil)
				g.definers = append(g.definers, nil)
			}
			g.defs[id] = append(g.defs[id], defLoc{int32(fi), int32(di)})
			if ds := g.definers[id]; len(ds) == 0 || ds[len(ds)-1] != int32(fi) {
				g.definers[id] = append(ds, int32(fi))
			}
		}
	}
	// users[id] counts the files using name id. A name nearly every file
	// uses (a builtin type such as string, err, ctx) links everything to
	// whatever happens to define it; such names weigh less (the square of
	// their inverse document frequency), and past half the files nothing.
	// Each name is looked up once; resolved[lo[f]:lo[f+1]] are f's.
	users := make([]int32, len(g.defs))
	var resolved []int32
	lo := make([]int, len(files)+1)
	for fi, f := range files {
		lo[fi] = len(resolved)
		for _, r := range f.Refs {
			if id, ok := ids[r]; ok {
				users[id]++
				resolved = append(resolved, id)
			}
		}
	}
	lo[len(files)] = len(resolved)
	n := float64(len(files))
	// acc sums one file's edge weights per target; touched lists the
	// targets in first-seen order, so the edges (and the floating-point
	// sums over them) come out the same on every run.
	acc := make([]float64, len(files))
	var touched []int32
	for fi := range files {
		for _, id := range resolved[lo[fi]:lo[fi+1]] {
			ds := g.definers[id]
			if len(ds) > maxDefiners || (n >= 8 && float64(users[id]) > n/2) {
				continue
			}
			if len(ds) == 1 && ds[0] == int32(fi) {
				continue // only this file defines it: no link
			}
			idf := math.Log(1 + n/float64(users[id]))
			w := idf * idf / float64(len(ds))
			g.uses[fi] = append(g.uses[fi], use{id, w})
			for _, d := range ds {
				if d != int32(fi) {
					if acc[d] == 0 {
						touched = append(touched, d)
					}
					acc[d] += w
				}
			}
		}
		es := make([]edge, 0, len(touched))
		for _, d := range touched {
			es = append(es, edge{d, acc[d]})
			g.outSum[fi] += acc[d]
			acc[d] = 0
		}
		g.out[fi] = es
		touched = touched[:0]
	}
	return g
}
