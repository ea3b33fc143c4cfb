package completion

import (
	"path/filepath"

	"github.com/tandemhq/tandem/codeindex"
	"github.com/tandemhq/tandem/treesitter"
)

// indexSymbols reads a code index: the definitions as of its last
// refresh (the saved files), which is what a warm index answers without
// parsing anything on a keystroke.
type indexSymbols struct{ ix *codeindex.Index }

// IndexSymbols adapts a workspace folder's code index.
func IndexSymbols(ix *codeindex.Index) Symbols { return indexSymbols{ix} }

func (s indexSymbols) Defs(abs string) []treesitter.Definition {
	if f, ok := s.ix.File(abs); ok {
		return f.Defs
	}
	return nil
}

func (s indexSymbols) Find(name string, limit int) []Symbol {
	hits := s.ix.Search(name, codeindex.MatchExact, limit)
	out := make([]Symbol, 0, len(hits))
	for _, h := range hits {
		if h.Name != name {
			continue // Search ignores case; code does not
		}
		out = append(out, Symbol{Path: filepath.Join(s.ix.Root(), filepath.FromSlash(h.Path)), Definition: h.Definition})
	}
	return out
}
