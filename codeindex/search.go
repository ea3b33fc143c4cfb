package codeindex

import (
	"sort"
	"strings"

	"github.com/tandemhq/tandem/treesitter"
)

// Match selects how Search compares names.
type Match int

const (
	// MatchExact finds names equal to the query, ignoring case.
	MatchExact Match = iota
	// MatchPrefix finds names starting with the query, ignoring case.
	MatchPrefix
	// MatchFuzzy finds names containing the query's characters in order
	// (`nwcrc` finds NewCircle), best matches first.
	MatchFuzzy
)

// Symbol is one search hit.
type Symbol struct {
	Path string // file, relative to the root
	treesitter.Definition
	score int
}

type nameEntry struct {
	lower string
	file  *File
	def   int
}

func (s *snapshot) nameTable() []nameEntry {
	s.namesOnce.Do(func() {
		n := 0
		for _, f := range s.files {
			n += len(f.Defs)
		}
		names := make([]nameEntry, 0, n)
		for _, f := range s.files {
			for i := range f.Defs {
				names = append(names, nameEntry{lower: strings.ToLower(f.Defs[i].Name), file: f, def: i})
			}
		}
		sort.Slice(names, func(i, j int) bool {
			a, b := names[i], names[j]
			if a.lower != b.lower {
				return a.lower < b.lower
			}
			if a.file.Path != b.file.Path {
				return a.file.Path < b.file.Path
			}
			return a.def < b.def
		})
		s.names = names
	})
	return s.names
}

// Search returns up to limit definitions whose names match query (limit <= 0
// means no limit). Exact and prefix hits come in name then path order; fuzzy
// hits best first.
func (ix *Index) Search(query string, how Match, limit int) []Symbol {
	q := strings.ToLower(query)
	if q == "" {
		return nil
	}
	names := ix.snap.Load().nameTable()
	var out []Symbol
	full := func() bool { return limit > 0 && len(out) >= limit }
	switch how {
	case MatchExact, MatchPrefix:
		i := sort.Search(len(names), func(i int) bool { return names[i].lower >= q })
		for ; i < len(names) && !full(); i++ {
			e := names[i]
			if how == MatchExact && e.lower != q || !strings.HasPrefix(e.lower, q) {
				break
			}
			out = append(out, symbol(e, 0))
		}
	case MatchFuzzy:
		for _, e := range names {
			if sc, ok := fuzzyScore(e.lower, q); ok {
				out = append(out, symbol(e, sc))
			}
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
		if limit > 0 && len(out) > limit {
			out = out[:limit]
		}
	}
	return out
}

func symbol(e nameEntry, score int) Symbol {
	return Symbol{Path: e.file.Path, Definition: e.file.Defs[e.def], score: score}
}

// fuzzyScore matches q's characters in order within name. Consecutive runs,
// a match at the start and short names score higher.
func fuzzyScore(name, q string) (int, bool) {
	score, qi, run := 0, 0, 0
	for ni := 0; ni < len(name) && qi < len(q); ni++ {
		if name[ni] != q[qi] {
			run = 0
			continue
		}
		run++
		score += 1 + 2*run
		if ni == 0 {
			score += 8
		}
		qi++
	}
	if qi < len(q) {
		return 0, false
	}
	if name == q {
		score += 100
	}
	return score - len(name)/4, true
}
