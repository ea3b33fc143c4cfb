package filelist

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// racyWindow: a directory or file modified this recently may change again
// within the same timestamp tick, so its cached state is not trusted.
const racyWindow = 2 * time.Second

// Cache remembers what each directory held at its last walk. A directory's
// entries change only when its modification time does, so walking an
// unchanged tree again stats each directory instead of reading it. One
// owner uses it, with one root and one set of Options, never concurrently.
type Cache struct {
	dirs map[string]*listing // by slash-separated path relative to the root
}

// NewCache returns an empty Cache.
func NewCache() *Cache { return &Cache{dirs: map[string]*listing{}} }

type listing struct {
	mtime   int64    // unix nanoseconds; 0 = too recent to trust, read again
	subdirs []string // names, skip list already applied
	files   []string // names of files the Options admit
	ignore  *ignoreFile
}

// ignoreFile is a parsed .gitignore, kept while its size and mtime hold.
type ignoreFile struct {
	size, mtime int64
	patterns    []gitignore.Pattern
}

// TrustedTime is t in unix nanoseconds, or 0 when t is so recent that a
// further change could carry the same timestamp; 0 never matches a cached
// time, so such a file is looked at again next time. The code index keys
// its per-file cache with it too.
func TrustedTime(t time.Time) int64 {
	if age := time.Since(t); age < racyWindow && age > -racyWindow {
		return 0
	}
	return t.UnixNano()
}

// loadIgnore parses dir/.gitignore, whose patterns apply below domain (dir
// relative to the root), reusing prev while the file is unchanged. A
// missing or unreadable file yields an error and no patterns.
func loadIgnore(dir string, domain []string, prev *ignoreFile) (*ignoreFile, error) {
	return loadIgnoreFile(filepath.Join(dir, ".gitignore"), domain, prev)
}

// loadIgnoreFile parses the ignore file name as loadIgnore does.
func loadIgnoreFile(name string, domain []string, prev *ignoreFile) (*ignoreFile, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New(filepath.Base(name) + " is not a regular file") // a FIFO would block the read
	}
	mtime := TrustedTime(fi.ModTime())
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
