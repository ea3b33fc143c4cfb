package codeindex

import (
	"context"
	"os"
	"path/filepath"
)

// mapSnapshot brings the index up to date for a repository map: it turns
// reference extraction on for every later parse, refreshes, and parses
// again the files indexed without references (by an index opened for
// definitions only, or by a cache it wrote). Files do that once; the cache
// keeps their references afterwards.
func (ix *Index) mapSnapshot(ctx context.Context) (*snapshot, error) {
	ix.refreshMu.Lock()
	defer ix.refreshMu.Unlock()
	ix.refs.Store(true)
	if _, err := ix.refreshLocked(ctx, ix.snap.Load().files, false); err != nil {
		return nil, err
	}
	if err := ix.fillRefsLocked(ctx); err != nil {
		return nil, err
	}
	if err := ix.flushLocked(); err != nil {
		ix.log.Warn("code index cache not saved", "root", ix.root, "err", err)
	}
	return ix.snap.Load(), nil
}

// fillRefsLocked parses the snapshot's files that lack references and
// publishes a snapshot with them. A file that changed or went away since
// the refresh is parsed as it is now, or left for the next refresh.
func (ix *Index) fillRefsLocked(ctx context.Context) error {
	cur := ix.snap.Load()
	var jobs []job
	for p, f := range cur.files {
		if f.HasRefs || f.Err != "" {
			continue
		}
		fi, err := os.Lstat(filepath.Join(ix.root, filepath.FromSlash(p)))
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		jobs = append(jobs, job{path: p, info: fi, old: f})
	}
	if len(jobs) == 0 {
		return nil
	}
	done, err := ix.parse(ctx, jobs)
	if err != nil {
		return err
	}
	next := make(map[string]*File, len(cur.files))
	for p, f := range cur.files {
		next[p] = f
	}
	for _, d := range done {
		next[d.Path] = d.File
	}
	ix.snap.Store(newSnapshot(next))
	ix.dirty = true
	return nil
}
