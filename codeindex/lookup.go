package codeindex

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tandemhq/tandem/treesitter"
)

// Lookup returns the current definitions of one file (absolute, or relative
// to the root), re-parsing it first if it changed on disk since the last
// refresh. A file the listing left out (ignored, new) is indexed on demand.
func (ix *Index) Lookup(ctx context.Context, path string) (*File, error) {
	rel, ok := ix.rel(path)
	if !ok || rel == "." {
		return nil, fmt.Errorf("%s is not a file under the index root %s", path, ix.root)
	}
	if treesitter.ForPath(rel) == nil {
		return nil, fmt.Errorf("%s: no grammar for this kind of file", rel)
	}
	fi, err := os.Lstat(filepath.Join(ix.root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", rel)
	}
	old := ix.snap.Load().files[rel]
	if old != nil && old.ModTime != 0 && old.Size == fi.Size() && old.ModTime == fi.ModTime().UnixNano() {
		return old, nil
	}
	ix.refreshMu.Lock()
	defer ix.refreshMu.Unlock()
	done, err := ix.parse(ctx, []job{{path: rel, info: fi, old: old}})
	if err != nil {
		return nil, err
	}
	f := done[0].File
	ix.snap.Store(ix.snap.Load().with(f))
	ix.dirty = true
	return f, nil
}
