// Package codeindex keeps a per-root index of code definitions: which source
// files a workspace has (git's own ignore rules, or a .gitignore-aware walk
// outside git), what each defines (through package treesitter), a cache of
// both under $TANDEM_HOME/index so a second run re-parses only what changed
// (written once a tree costs more to index than the write: cacheWorth),
// and symbol search over the result. Sessions with the same root share one
// Index through a Pool.
//
// Readers see immutable snapshots: a refresh builds a new one and swaps it in,
// so a listing never observes a half-updated index. The package must never
// modify the files it indexes, trust a cache it cannot verify, or write to
// stdout.
package codeindex
