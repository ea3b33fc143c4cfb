package codeindex

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tandemhq/tandem/internal/pathx"
	"github.com/tandemhq/tandem/treesitter"
)

// Options configure an Index.
type Options struct {
	// CacheDir holds one cache per root ($TANDEM_HOME/index). Empty means
	// no persistent cache: every Open parses everything.
	CacheDir string
	// Workers parse files in parallel; 0 means one per CPU.
	Workers int
	// Logger receives cache problems and unreadable directories. Nil discards.
	Logger *slog.Logger
	// cacheAfter is the parse time that makes a first cache worth writing;
	// 0 means cacheWorth, a negative value every tree (tests).
	cacheAfter time.Duration
	// Refs extracts every parsed file's references (File.Refs) at once,
	// for an index that will render a repository map. Without it files
	// are parsed for definitions only, the cheaper walk `tandem defs`
	// needs, and the first Map fills in the references it lacks.
	Refs bool
}

// File is one indexed source file. A File is never modified once it is part
// of a snapshot; share it freely.
type File struct {
	Path    string // slash-separated, relative to the root
	Lang    string // treesitter language name
	Size    int64
	ModTime int64    // unix nanoseconds; 0 when too recent to trust
	Hash    [16]byte // SHA-256 prefix of the content
	Lines   int
	Defs    []treesitter.Definition
	// Refs are the distinct names the file uses (identifiers of two
	// bytes or more, sorted); the repository map links them to the files
	// defining them. They are read only when HasRefs is set.
	Refs    []string
	HasRefs bool
	// Err says why the file has no definitions: too large, binary,
	// unreadable. Empty when it was parsed.
	Err string
	// cost is what indexing the file took this process (its grammar's
	// unpack included when it came first); 0 when it came from the cache.
	cost time.Duration
}

// Index is the definitions index of one workspace root. Its methods are safe
// for concurrent use.
type Index struct {
	root string
	opts Options
	log  *slog.Logger

	snap atomic.Pointer[snapshot]
	// refs is set once references are wanted (Options.Refs or a first
	// Map): from then on every parse extracts them.
	refs atomic.Bool

	// refreshMu serialises refreshes and cache writes, and guards dirty and dirs.
	refreshMu sync.Mutex
	dirty     bool      // the snapshot differs from the cache on disk
	onDisk    bool      // the root has a cache file (read, refused or written)
	dirs      *dirCache // directory listings of the last walk (outside git)
}

// Open indexes root (made absolute, symlinks resolved): it lists the source
// files, reuses what the cache knows and parses the rest.
func Open(ctx context.Context, root string, opts Options) (*Index, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("code index root %q: %w", root, err)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("code index root: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("code index root %s is not a directory", abs)
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	ix := &Index{root: abs, opts: opts, log: opts.Logger, dirs: newDirCache()}
	ix.refs.Store(opts.Refs)
	if ix.log == nil {
		ix.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	// Reading the cache and listing the tree touch different things (one
	// big file; many directories and inodes): do them at once. The loader
	// always ends (a bounded read), so waiting for it is safe.
	type cacheLoad struct {
		files map[string]*File
		err   error
	}
	loaded := make(chan cacheLoad, 1)
	go func() {
		if opts.CacheDir == "" {
			loaded <- cacheLoad{err: os.ErrNotExist}
			return
		}
		files, err := loadCache(cacheDir(opts.CacheDir, abs), abs)
		loaded <- cacheLoad{files, err}
	}()
	ix.snap.Store(&snapshot{files: map[string]*File{}})
	ix.refreshMu.Lock()
	defer ix.refreshMu.Unlock()
	sc, scanErr := ix.scan(ctx)
	l := <-loaded
	if scanErr != nil {
		return nil, scanErr
	}
	prev := map[string]*File{}
	ix.onDisk = !errors.Is(l.err, os.ErrNotExist)
	switch {
	case l.err == nil:
		prev = l.files
	case !ix.onDisk:
	default:
		ix.log.Warn("code index cache ignored; rebuilding it", "root", abs, "err", l.err)
	}
	if _, err := ix.merge(ctx, sc, prev, len(prev) == 0); err != nil {
		return nil, err
	}
	if err := ix.flushLocked(); err != nil {
		ix.log.Warn("code index cache not saved", "root", abs, "err", err)
	}
	return ix, nil
}

// Root returns the absolute root the index covers.
func (ix *Index) Root() string { return ix.root }

// Stats describe what a refresh did.
type Stats struct {
	Files    int      // source files in the index
	Parsed   int      // files parsed by this refresh
	Reused   int      // files whose content hash matched the cache (touched, not changed)
	Removed  int      // files gone since the last refresh
	Problems []string // directories that could not be read
}

// Refresh brings the index up to date with the disk: it re-lists the files,
// stats each and re-parses only those whose size or modification time
// changed. The cache is rewritten only when something changed.
func (ix *Index) Refresh(ctx context.Context) (Stats, error) {
	ix.refreshMu.Lock()
	defer ix.refreshMu.Unlock()
	st, err := ix.refreshLocked(ctx, ix.snap.Load().files, false)
	if err != nil {
		return st, err
	}
	if err := ix.flushLocked(); err != nil {
		ix.log.Warn("code index cache not saved", "root", ix.root, "err", err)
	}
	return st, nil
}

// Flush writes the cache if the index changed since it was last written.
func (ix *Index) Flush() error {
	ix.refreshMu.Lock()
	defer ix.refreshMu.Unlock()
	return ix.flushLocked()
}

// cacheWorth is the least parse time that makes a tree's first cache worth
// writing. That write creates the cache's directories and file: 1.5-2.7 ms
// of a session's first turn on ext4 (measured into a fresh $TANDEM_HOME),
// where reading it back takes some 20 µs. A tree that indexed in less (a
// single Go file of a few KB takes 0.5-0.9 ms, its grammar's unpack
// included) costs less to index again at the next Open than to write now.
const cacheWorth = 2 * time.Millisecond

// flushLocked writes the cache if the snapshot changed since it was last
// written and the cache pays: a root with a cache file keeps it current; one
// without gets its first once indexing it costs more than writing it.
func (ix *Index) flushLocked() error {
	if !ix.dirty || ix.opts.CacheDir == "" {
		return nil
	}
	snap := ix.snap.Load()
	if !ix.onDisk && !ix.worthCaching(snap) {
		return nil // still dirty: a later flush weighs it again
	}
	if err := saveCache(cacheDir(ix.opts.CacheDir, ix.root), ix.root, snap.sorted()); err != nil {
		return err
	}
	ix.dirty, ix.onDisk = false, true
	return nil
}

// worthCaching reports whether indexing snap's files took at least the
// options' cacheAfter: what the next Open would spend again without a cache.
func (ix *Index) worthCaching(snap *snapshot) bool {
	after := ix.opts.cacheAfter
	if after == 0 {
		after = cacheWorth
	}
	var sum time.Duration
	for _, f := range snap.files {
		if sum += f.cost; sum >= after {
			return true
		}
	}
	return sum >= after
}

// refreshLocked lists and stats the root and publishes a new snapshot if
// anything differs from prev. fresh marks prev as empty so the cache must be written.
func (ix *Index) refreshLocked(ctx context.Context, prev map[string]*File, fresh bool) (Stats, error) {
	sc, err := ix.scan(ctx)
	if err != nil {
		return Stats{Problems: sc.problems}, err
	}
	return ix.merge(ctx, sc, prev, fresh)
}

// scanned is the tree as it is now: its indexable files and their stat.
type scanned struct {
	paths    []string
	infos    []os.FileInfo
	problems []string
}

// scan lists the root's files and stats them.
func (ix *Index) scan(ctx context.Context) (scanned, error) {
	paths, problems, err := listFiles(ctx, ix.root, ix.dirs)
	if err != nil {
		return scanned{}, fmt.Errorf("listing files of %s: %w", ix.root, err)
	}
	for _, p := range problems {
		ix.log.Warn("code index: directory skipped", "root", ix.root, "problem", p)
	}
	infos, err := ix.statAll(ctx, paths)
	return scanned{paths, infos, problems}, err
}

// merge brings the snapshot up to date with a scan, keeping what prev
// already holds for unchanged files and parsing the rest.
func (ix *Index) merge(ctx context.Context, sc scanned, prev map[string]*File, fresh bool) (Stats, error) {
	paths, infos := sc.paths, sc.infos
	st := Stats{Problems: sc.problems}
	var jobs []job
	kept := 0
	for i, p := range paths {
		fi := infos[i]
		if fi == nil || !fi.Mode().IsRegular() {
			paths[i], infos[i] = "", nil // deleted since listing, a symlink, or not a file
			continue
		}
		old := prev[p]
		if old != nil && old.ModTime != 0 && old.Size == fi.Size() && old.ModTime == fi.ModTime().UnixNano() {
			kept++
			continue
		}
		jobs = append(jobs, job{path: p, info: fi, old: old})
	}
	// The common case on a large tree: nothing changed, nothing to build.
	if !fresh && len(jobs) == 0 && kept == len(prev) && len(prev) == len(ix.snap.Load().files) {
		st.Files = kept
		return st, nil
	}
	next := make(map[string]*File, len(paths))
	for i, p := range paths {
		if infos[i] != nil && prev[p] != nil && prev[p].ModTime != 0 &&
			prev[p].Size == infos[i].Size() && prev[p].ModTime == infos[i].ModTime().UnixNano() {
			next[p] = prev[p]
		}
	}
	changed := fresh
	if len(jobs) > 0 {
		done, err := ix.parse(ctx, jobs)
		if err != nil {
			return st, err
		}
		for _, f := range done {
			next[f.Path] = f.File
			if f.reused {
				st.Reused++
			} else {
				st.Parsed++
			}
			// A file rehashed to the same content with an untrusted
			// mtime changes nothing worth a cache write.
			if !f.reused || f.File.ModTime != f.old.ModTime {
				changed = true
			}
		}
	}
	for p := range prev {
		if _, ok := next[p]; !ok {
			st.Removed++
			changed = true
		}
	}
	st.Files = len(next)
	if changed || len(next) != len(ix.snap.Load().files) {
		ix.snap.Store(newSnapshot(next))
		ix.dirty = ix.dirty || changed
	}
	return st, nil
}

// statAll lstats paths (relative) with the index's workers; a file that
// cannot be stat'ed gets a nil entry. Stat calls dominate a refresh of a
// large unchanged tree, so they are spread over the CPUs.
func (ix *Index) statAll(ctx context.Context, paths []string) ([]os.FileInfo, error) {
	infos := make([]os.FileInfo, len(paths))
	workers := min(ix.opts.Workers, 1+len(paths)/256)
	chunk := (len(paths) + workers - 1) / max(workers, 1)
	var wg sync.WaitGroup
	for lo := 0; lo < len(paths); lo += chunk {
		hi := min(lo+chunk, len(paths))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi && ctx.Err() == nil; i++ {
				if fi, err := os.Lstat(filepath.Join(ix.root, filepath.FromSlash(paths[i]))); err == nil {
					infos[i] = fi
				}
			}
		}()
	}
	wg.Wait()
	return infos, ctx.Err()
}

// File returns the indexed file at path (absolute, or relative to the root).
func (ix *Index) File(path string) (*File, bool) {
	rel, ok := ix.rel(path)
	if !ok {
		return nil, false
	}
	f, ok := ix.snap.Load().files[rel]
	return f, ok
}

// Files returns the indexed files under dir (absolute or relative to the
// root; "" or "." for all), sorted by path.
func (ix *Index) Files(dir string) []*File {
	all := ix.snap.Load().sorted()
	rel, ok := ix.rel(dir)
	if !ok {
		return nil
	}
	if rel == "." || rel == "" {
		return all
	}
	prefix := rel + "/"
	lo := sort.Search(len(all), func(i int) bool { return all[i].Path >= prefix })
	hi := lo
	for hi < len(all) && strings.HasPrefix(all[hi].Path, prefix) {
		hi++
	}
	return all[lo:hi:hi]
}

// rel converts path to a slash-separated path relative to the root.
func (ix *Index) rel(path string) (string, bool) {
	if path == "" {
		return ".", true
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(ix.root, path)
	}
	rel, ok := pathx.Within(ix.root, path)
	if !ok {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
