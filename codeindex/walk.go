package codeindex

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// dirCache remembers what each directory held at its last walk. A
// directory's entry list changes only when its modification time does, so
// a refresh of an unchanged tree stats each directory instead of reading it.
// Owned by one Index and used under its refreshMu.
type dirCache struct {
	dirs map[string]*dirListing // by slash-separated relative path
}

type dirListing struct {
	mtime   int64    // unix nanoseconds; 0 = too recent to trust, read again
	subdirs []string // names, skip list already applied
	files   []string // names of indexable regular files
	ignore  *ignoreFile
}

// ignoreFile is a parsed .gitignore, kept while its size and mtime hold.
type ignoreFile struct {
	size, mtime int64
	patterns    []gitignore.Pattern
}

func newDirCache() *dirCache { return &dirCache{dirs: map[string]*dirListing{}} }

// walkFiles lists source files outside git. Symbolic links are not followed
// (no loops, no escapes from the root); unreadable directories are reported
// in problems and skipped.
func walkFiles(ctx context.Context, root string, cache *dirCache) (files, problems []string, err error) {
	seen := map[string]*dirListing{}
	var walk func(dir string, domain []string, patterns []gitignore.Pattern) error
	walk = func(dir string, domain []string, patterns []gitignore.Pattern) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		l, err := listDir(root, dir, domain, cache)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", displayDir(dir), errors.Unwrap(err)))
			return nil
		}
		seen[dir] = l
		if l.ignore != nil {
			patterns = append(patterns[:len(patterns):len(patterns)], l.ignore.patterns...)
		}
		m := gitignore.NewMatcher(patterns)
		for _, name := range l.files {
			if !m.Match(append(domain[:len(domain):len(domain)], name), false) {
				files = append(files, path.Join(dir, name))
			}
		}
		for _, name := range l.subdirs {
			parts := append(domain[:len(domain):len(domain)], name)
			if m.Match(parts, true) {
				continue
			}
			if err := walk(path.Join(dir, name), parts, patterns); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk("", nil, nil); err != nil {
		return nil, problems, err
	}
	if cache != nil {
		cache.dirs = seen // forget directories that are gone or now ignored
	}
	return files, problems, nil
}

// listDir returns dir's listing, from cache when the directory (and its
// .gitignore) are unchanged.
func listDir(root, dir string, domain []string, cache *dirCache) (*dirListing, error) {
	abs := filepath.Join(root, filepath.FromSlash(dir))
	fi, err := os.Lstat(abs)
	if err != nil {
		return nil, err
	}
	mtime := trustedTime(fi.ModTime())
	var old *dirListing
	if cache != nil {
		old = cache.dirs[dir]
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
	l := &dirListing{mtime: mtime}
	for _, e := range entries {
		name := e.Name()
		switch t := e.Type(); {
		case t.IsDir():
			if !skipDirs[name] {
				l.subdirs = append(l.subdirs, name)
			}
		case t.IsRegular():
			if name == ".gitignore" {
				var prev *ignoreFile
				if old != nil {
					prev = old.ignore
				}
				l.ignore, _ = loadIgnore(abs, domain, prev)
			} else if indexable(name) {
				l.files = append(l.files, name)
			}
		}
	}
	return l, nil
}

// trustedTime is t in unix nanoseconds, or 0 when t is so recent that a
// further change could carry the same timestamp.
func trustedTime(t time.Time) int64 {
	if age := time.Since(t); age < racyWindow && age > -racyWindow {
		return 0
	}
	return t.UnixNano()
}

// loadIgnore parses dir/.gitignore, reusing prev while the file is
// unchanged. A missing or unreadable file yields nil.
func loadIgnore(dir string, domain []string, prev *ignoreFile) (*ignoreFile, error) {
	name := filepath.Join(dir, ".gitignore")
	fi, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	mtime := trustedTime(fi.ModTime())
	if prev != nil && mtime != 0 && prev.mtime == mtime && prev.size == fi.Size() {
		return prev, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	ig := &ignoreFile{size: fi.Size(), mtime: mtime}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ig.patterns = append(ig.patterns, gitignore.ParsePattern(line, domain))
	}
	return ig, nil
}
