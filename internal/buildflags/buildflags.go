// Package buildflags holds the go build flags of a static Linux tandem, the
// one place the release build (internal/release) and the tests' build
// (internal/testenv) take them from, so tests run what users run.
package buildflags

// Tags keep name and user lookups in Go, so nothing needs glibc's run-time
// loading (NSS) and a static binary behaves as a dynamic one.
const Tags = "netgo,osusergo"

// StaticLDFlags link the C parts (tree-sitter) statically and strip the
// binary: it starts faster (no dynamic loader, and every command tandem
// sandboxes starts through it) and runs on any Linux whatever its C
// library.
const StaticLDFlags = "-s -w -linkmode external -extldflags -static"
