// Package treesitter is tandem's one table of source languages: it maps file
// extensions to a tree-sitter grammar and a definitions extractor, and turns
// a file's bytes into the definitions it declares (functions, types, methods
// and their enclosing scopes).
//
// Every other package asks this one (ForPath, Languages) instead of listing
// languages or extensions itself.
//
// The package must never let a tree-sitter Tree or Node outlive the call that
// parsed it or cross goroutines: the bindings keep an unsynchronized node
// cache per tree, and an unclosed tree holds C memory until a finalizer runs.
// A Parser is therefore owned by one goroutine; the Language table is
// immutable and safe to share.
package treesitter
