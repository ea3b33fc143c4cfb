package treesitter

import (
	"slices"
	"strings"
)

// isIdentSymbol reports the node types whose text is a name a file uses:
// every grammar calls them identifier, type_identifier, field_identifier
// and the like; Ruby's constants and PHP's names are the exceptions.
func isIdentSymbol(name string) bool {
	return strings.HasSuffix(name, "identifier") || name == "constant" || name == "name"
}

// minRefLen drops one-letter names (loop variables, receivers): they name
// no definition worth ranking and would only grow every file's list.
const minRefLen = 2

// refs returns the distinct identifier names under root, sorted. It is one
// cgo call for the whole walk plus a map lookup per identifier; a string is
// allocated only for a name seen the first time in this file.
func (p *Parser) refs(tab *grammarTables, root node, src []byte) []string {
	p.spans = p.cur.identRanges(root, tab.idents, p.spans)
	if p.seen == nil {
		p.seen = make(map[string]struct{})
	}
	clear(p.seen)
	var out []string
	for i := 0; i+1 < len(p.spans); i += 2 {
		a, b := int(p.spans[i]), int(p.spans[i+1])
		if b-a < minRefLen || b > len(src) || a > b {
			continue
		}
		if _, ok := p.seen[string(src[a:b])]; ok {
			continue
		}
		s := string(src[a:b])
		p.seen[s] = struct{}{}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}
