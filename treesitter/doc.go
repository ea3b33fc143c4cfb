// Package treesitter is tandem's one table of source languages: it maps file
// extensions to a tree-sitter grammar and a definitions extractor, and turns
// a file's bytes into the definitions it declares (functions, types, methods
// and their enclosing scopes).
//
// Every other package asks this one (ForPath, Languages) instead of listing
// languages or extensions itself.
//
// The package must never let a tree-sitter tree or node outlive the call that
// parsed it or cross goroutines: an unclosed tree holds C memory until a
// finalizer runs, and a node points into its tree. A Parser is therefore
// owned by one goroutine; the Language table is immutable and safe to share.
//
// The bindings parse; the walk reads the tree through the C API directly
// (node.go), because the bindings' per-node bookkeeping cost more than the
// walk. Those C declarations must match the runtime of the pinned bindings
// version; TestNodeLayout fails if they drift.
//
// The grammars are generated copies (internal/grammars, by `go generate`)
// whose parse tables stay compressed until a language's first parse, which
// keeps some 26 MB out of the binary.
package treesitter
