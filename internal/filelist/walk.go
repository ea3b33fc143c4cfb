package filelist

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// errFull stops a walk that reached Options.Max.
var errFull = errors.New("file cap reached")

// Walk lists the files under root without git, unsorted, applying the
// .gitignore files of every directory walked and, when opts.Dir is set, of
// the directories above it. Directories it cannot read are left out and
// reported in Problems (the starting directory included); symbolic links
// are never followed. It fails only when ctx ends.
func Walk(ctx context.Context, root string, opts Options) (Result, error) {
	var res Result
	seen := map[string]*listing{}
	var walk func(dir string, domain []string, patterns []gitignore.Pattern) error
	walk = func(dir string, domain []string, patterns []gitignore.Pattern) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		l, err := listDir(root, dir, domain, &opts)
		if err != nil {
			res.Problems = append(res.Problems, Problem{Dir: dir, Err: err})
			return nil
		}
		seen[dir] = l
		if l.ignore != nil {
			patterns = append(slices.Clip(patterns), l.ignore.patterns...)
		}
		m := gitignore.NewMatcher(patterns)
		for _, name := range l.files {
			if !m.Match(append(slices.Clip(domain), name), false) {
				res.Files = append(res.Files, path.Join(dir, name))
				if opts.full(res.Files) {
					return errFull
				}
			}
		}
		for _, name := range l.subdirs {
			parts := append(slices.Clip(domain), name)
			if m.Match(parts, true) {
				continue
			}
			if err := walk(path.Join(dir, name), parts, patterns); err != nil {
				return err
			}
		}
		return nil
	}
	domain, patterns := ancestorPatterns(root, opts.Dir)
	switch err := walk(opts.Dir, domain, patterns); {
	case errors.Is(err, errFull):
		res.Truncated = true
	case err != nil:
		return Result{}, err
	case opts.Cache != nil:
		opts.Cache.dirs = seen // forget directories that are gone or now ignored
	}
	return res, nil
}

// ancestorPatterns returns dir split into its elements and the patterns
// the .gitignore files of the root and of dir's ancestors impose on it.
func ancestorPatterns(root, dir string) ([]string, []gitignore.Pattern) {
	if dir == "" {
		return nil, nil
	}
	parts := strings.Split(dir, "/")
	var patterns []gitignore.Pattern
	for i := range parts {
		abs := filepath.Join(root, filepath.FromSlash(strings.Join(parts[:i], "/")))
		if ig, err := loadIgnore(abs, slices.Clone(parts[:i]), nil); err == nil {
			patterns = append(patterns, ig.patterns...)
		}
	}
	return parts, patterns
}

// listDir returns dir's listing, from the cache when the directory (and its
// .gitignore) are unchanged.
func listDir(root, dir string, domain []string, opts *Options) (*listing, error) {
	abs := filepath.Join(root, filepath.FromSlash(dir))
	fi, err := os.Lstat(abs)
	if err != nil {
		return nil, err
	}
	mtime := TrustedTime(fi.ModTime())
	var old *listing
	if opts.Cache != nil {
		old = opts.Cache.dirs[dir]
	}
	if old != nil && mtime != 0 && old.mtime == mtime {
		if old.ignore == nil {
			return old, nil
		}
		ig, err := loadIgnore(abs, domain, old.ignore)
		if err == nil && ig == old.ignore {
			return old, nil
		}
		l := *old
		l.ignore = ig
		return &l, nil
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, err
	}
	l := &listing{mtime: mtime}
	for _, e := range entries {
		name := e.Name()
		if slices.Contains(opts.Skip, name) {
			continue
		}
		t := e.Type()
		if t.IsDir() {
			l.subdirs = append(l.subdirs, name)
			continue
		}
		if !t.IsRegular() && (!opts.Symlinks || t&os.ModeSymlink == 0) {
			continue
		}
		if name == ".gitignore" {
			var prev *ignoreFile
			if old != nil {
				prev = old.ignore
			}
			l.ignore, _ = loadIgnore(abs, domain, prev)
		}
		if opts.Keep == nil || opts.Keep(path.Join(dir, name)) {
			l.files = append(l.files, name)
		}
	}
	return l, nil
}
