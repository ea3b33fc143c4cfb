// Package pathx holds tandem's one answer to "does this path lie inside that
// directory?". Every containment check (the tools' Resolve and Protected,
// the code index, workspace instructions, the front doors) asks Within, so
// the rule cannot drift between them.
//
// It is purely lexical: it must never touch the file system. A caller that
// has to see through symbolic links resolves them first (tools.Resolve
// does) and then asks Within about the resolved path.
package pathx

// Within reports whether p is dir itself or lies below it, and if so p
// relative to dir ("." for dir itself), spelled as p spells it. Both should
// be absolute, or both relative to the same place; a name such as "..foo"
// stays inside. Under the running OS's Rule: on macOS and Windows names
// compare case-insensitively (C:\Repo and c:\repo are one root), and on
// Windows a different drive or share is never inside.
func Within(dir, p string) (rel string, ok bool) { return within(dir, p, Native()) }
