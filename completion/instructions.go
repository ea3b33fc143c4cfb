package completion

import (
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tandemhq/tandem/agent/instructions"
)

// instructionsCache keeps each root's instruction text for completions,
// read again when the file changes. Completions send it only where the
// user enabled it (completion.instructions): it is context, and it is a
// protected file.
type instructionsCache struct {
	mu    sync.Mutex // guards roots
	roots map[string]instrEntry
}

type instrEntry struct {
	path  string
	mtime time.Time
	size  int64
	chunk Chunk
}

// chunk returns root's instruction file (the first default candidate
// present) within budget, or nothing when disabled.
func (c *instructionsCache) chunk(root string, budget int, enabled bool) Chunk {
	if !enabled || root == "" || budget <= 0 {
		return Chunk{}
	}
	for _, name := range instructions.DefaultCandidates() {
		path := filepath.Join(root, name)
		fi, err := os.Stat(path)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		c.mu.Lock()
		e, ok := c.roots[root]
		c.mu.Unlock()
		if ok && e.path == path && e.mtime.Equal(fi.ModTime()) && e.size == fi.Size() {
			return e.chunk
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return Chunk{}
		}
		e = instrEntry{path: path, mtime: fi.ModTime(), size: fi.Size(), chunk: Chunk{Path: name, Text: snippet(string(b), 0, budget)}}
		c.mu.Lock()
		if c.roots == nil {
			c.roots = map[string]instrEntry{}
		}
		c.roots[root] = e
		c.mu.Unlock()
		return e.chunk
	}
	return Chunk{}
}
