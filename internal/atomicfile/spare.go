package atomicfile

import (
	"context"
	"sync"
)

// Spares lets a Dir replace an existing file without making a new one.
// Creating a file costs an inode, and freeing the replaced one costs
// another; on ext4 without a journal each creation also scans past the
// inodes freed in the last half minute, so a run of edits gets slower the
// more it edits. With Spares, the new content goes into a spare file that
// is then exchanged with the target in one step (Linux's
// renameat2(RENAME_EXCHANGE)): a reader still sees the old content or the
// new, never a mix, and the replaced file becomes the next spare once it
// is emptied (by a goroutine, just after the edit returns: freeing its
// blocks can wait on the disk). No inode is made or freed per edit.
//
// The spare lives in a directory of its own under dir (tandem puts dir in
// $TANDEM_HOME), never in the tree being edited: nothing that lists,
// watches or indexes the workspace sees it. A file on another mount, one
// that is new, a symlink, a file of another group, one with extended
// attributes (an ACL, a security label: a rename's new file gets its
// directory's, which a spare made elsewhere lacks), any system whose new
// files are born with attributes, or without the exchange, is replaced
// by temporary file and rename as before.
//
// The directory is locked while its Spares is open; opening one removes
// the directories of Spares whose process died without closing them.
// Spares is safe for concurrent use; edits through it take turns, and
// Close waits for the last emptying. The zero value is not usable; a nil
// *Spares means none.
type Spares struct {
	dir string

	mu     sync.Mutex // guards state and serialises the exchanges
	state  spareState // the platform's part: directory, spare file
	broken bool       // setting up failed or exchange is refused: fall back for good

	// beforeExchange, when set (by this package's tests), runs between
	// the look at the target and the exchange: where another process may
	// swap something else in.
	beforeExchange func()
}

// NewSpares returns Spares that keeps its files under dir, created (0700)
// on the first edit that needs it.
func NewSpares(dir string) *Spares { return &Spares{dir: dir} }

// Close empties and removes the spare and its directory. Edits through
// the Spares after Close fall back to temporary file and rename.
func (s *Spares) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.broken = true
	return s.state.close()
}

// UseSpares makes d's replacements of existing files go through s (nil:
// temporary file and rename).
func (d *Dir) UseSpares(s *Spares) { d.spares = s }

type sparesKey struct{}

// WithSpares returns ctx carrying s, for a writer that opens its Dir per
// edit (the local host).
func WithSpares(ctx context.Context, s *Spares) context.Context {
	return context.WithValue(ctx, sparesKey{}, s)
}

// SparesFrom returns the Spares ctx carries, or nil.
func SparesFrom(ctx context.Context) *Spares {
	s, _ := ctx.Value(sparesKey{}).(*Spares)
	return s
}
