// Package codeindex keeps a per-root index of code definitions: a
// gitignore-aware file list, an incremental definitions cache and symbol
// search. Sessions with the same root share one Index through a Pool.
package codeindex

// Index is the definitions index of one workspace root.
// (Placeholder: the full implementation lands with the tree-sitter work.)
type Index struct {
	root string
}

// Root returns the absolute root the index covers.
func (ix *Index) Root() string { return ix.root }

// Pool shares one Index per root between sessions.
type Pool struct{}
