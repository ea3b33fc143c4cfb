// Package pathx holds tandem's one answer to "does this path lie inside that
// directory?". Every containment check (the tools' Resolve and Protected,
// the code index, workspace instructions, the front doors) asks Within, so
// the rule cannot drift between them.
//
// It is purely lexical: it must never touch the file system. A caller that
// has to see through symbolic links resolves them first (tools.Resolve
// does) and then asks Within about the resolved path.
package pathx

import "path/filepath"

// Within reports whether p is dir itself or lies below it, and if so p
// relative to dir ("." for dir itself). Both should be absolute, or both
// relative to the same place; a name such as "..foo" stays inside.
func Within(dir, p string) (rel string, ok bool) {
	rel, err := filepath.Rel(dir, p)
	// filepath.IsLocal refuses "", absolute paths and anything that climbs
	// with "..", which is exactly what leaving dir looks like after Rel.
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return rel, true
}
