package treesitter

// The grammars under internal/grammars are generated from the tree-sitter
// module in go.mod; the generator needs that module and a C compiler, the
// build needs neither.
//go:generate go run ./internal/gen -out internal/grammars
