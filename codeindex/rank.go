package codeindex

import "math"

// PageRank's damping and stopping rule: the usual 0.85, and iteration until
// the ranks move less than tolerance in total (or maxIterations).
const (
	damping       = 0.85
	tolerance     = 1e-7
	maxIterations = 60
	// focusShare is the teleport mass given to the focus files when there
	// are any; the rest is spread over every file, so a file the focus
	// cannot reach still has an order.
	focusShare = 0.9
)

// ranking is the result of one personalised PageRank: a score per file and
// per definition.
type ranking struct {
	file []float64
	// def[f][d] is the rank flowing into definition d of file f through
	// references to its name.
	def [][]float64
}

// personalise returns the teleport vector: uniform, or weighted toward the
// files focus marks.
func personalise(n int, focus []bool) []float64 {
	p := make([]float64, n)
	nf := 0
	for _, f := range focus {
		if f {
			nf++
		}
	}
	base := 1 / float64(n)
	if nf > 0 {
		base = (1 - focusShare) / float64(n)
	}
	for i := range p {
		p[i] = base
		if nf > 0 && focus[i] {
			p[i] += focusShare / float64(nf)
		}
	}
	return p
}

// rank runs PageRank over g with teleport vector p. A file with no edges
// hands its rank back through p, so the ranks always sum to one.
func (g *refGraph) rank(p []float64) ranking {
	n := len(g.files)
	r := append([]float64(nil), p...)
	next := make([]float64, n)
	for range maxIterations {
		dangling := 0.0
		for i := range next {
			next[i] = 0
			if g.outSum[i] == 0 {
				dangling += r[i]
			}
		}
		for i, es := range g.out {
			if g.outSum[i] == 0 {
				continue
			}
			share := r[i] / g.outSum[i]
			for _, e := range es {
				next[e.to] += share * e.w
			}
		}
		diff := 0.0
		for i := range next {
			v := (1-damping)*p[i] + damping*(next[i]+dangling*p[i])
			diff += math.Abs(v - r[i])
			next[i] = v
		}
		r, next = next, r
		if diff < tolerance {
			break
		}
	}
	return ranking{file: r, def: g.credit(r)}
}

// credit spreads each file's rank over the definitions it refers to, in
// the proportions of its edges, so a file's definitions are ordered by how
// much of its rank came through each of them.
func (g *refGraph) credit(r []float64) [][]float64 {
	def := make([][]float64, len(g.files))
	for i, f := range g.files {
		def[i] = make([]float64, len(f.Defs))
	}
	for fi, uses := range g.uses {
		if g.outSum[fi] == 0 {
			continue
		}
		share := r[fi] / g.outSum[fi]
		for _, u := range uses {
			w := share * u.w
			for _, loc := range g.defs[u.id] {
				if loc.file != int32(fi) {
					def[loc.file][loc.def] += w
				}
			}
		}
	}
	return def
}
