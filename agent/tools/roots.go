package tools

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tandemhq/tandem/codeindex"
)

// Resolve turns a path the model gave into an absolute path inside one of
// the session's roots. A relative path is taken from the primary root
// (env.Root); an absolute one may lie in any root, with the same symlink
// and spelling rules as the primary root's (see the package Resolve).
func (env *Env) Resolve(p string) (string, error) {
	abs, _, err := env.resolveInfo(p)
	return abs, err
}

// resolveInfo is Resolve that also returns what the walk's Lstat of the
// result found (nil when it did not end on one: missing, or the root
// itself), so a tool need not stat the file again to tell a directory.
func (env *Env) resolveInfo(p string) (string, fs.FileInfo, error) {
	abs, fi, err := resolveInInfo(env.Root, p)
	if err == nil || !filepath.IsAbs(p) {
		return abs, fi, err
	}
	if r := rootHolding(env.Roots, filepath.Clean(p)); r != "" {
		return resolveInInfo(r, p)
	}
	return "", nil, err
}

// isDir reports whether abs is a directory, from fi (resolveInfo's) when
// the walk saw it, else by a stat.
func isDir(abs string, fi fs.FileInfo) bool {
	if fi == nil {
		var err error
		if fi, err = os.Stat(abs); err != nil {
			return false
		}
	}
	return fi.IsDir()
}

// RootOf returns the root that holds abs (a path Resolve returned): the
// primary root, or one of the additional ones. Tools that walk a directory
// list it from there.
func (env *Env) RootOf(abs string) string {
	if r := rootHolding(env.Roots, abs); r != "" {
		if _, inPrimary := within(env.Root, abs); !inPrimary {
			return r
		}
	}
	return env.Root
}

// rootHolding returns the first of roots that holds p, spelled either as
// given or with the root's symlinks resolved; "" when none does.
func rootHolding(roots []string, p string) string {
	for _, r := range roots {
		if _, ok := within(filepath.Clean(r), p); ok {
			return r
		}
		if real, err := filepath.EvalSymlinks(r); err == nil {
			if _, ok := within(real, p); ok {
				return r
			}
		}
	}
	return ""
}

// indexFor returns the code index of the root holding abs, nil when that
// root's index is not built.
func (env *Env) indexFor(abs string) *codeindex.Index {
	root := env.RootOf(abs)
	if root == env.Root {
		return env.Index
	}
	for i, r := range env.Roots {
		if r == root && i < len(env.RootIndexes) {
			return env.RootIndexes[i]
		}
	}
	return nil
}

// MapParts pairs the roots with their code indexes for codeindex.MapRoots:
// ixs[0] is root's, ixs[1:] are roots' in order. The primary root's paths
// are written relative to it, every other root's as absolute paths (the
// way the model names them to the file tools). A root without an index
// (nil) is left out.
func MapParts(root string, roots []string, ixs []*codeindex.Index) []codeindex.MapPart {
	var parts []codeindex.MapPart
	for i, ix := range ixs {
		if ix == nil {
			continue
		}
		p := codeindex.MapPart{Index: ix}
		if i > 0 && i <= len(roots) {
			p.Prefix = filepath.ToSlash(roots[i-1]) + "/"
		}
		parts = append(parts, p)
	}
	return parts
}
