package lsp

import (
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tandemhq/tandem/completion"
)

// document is an editor buffer as the client last described it. Its
// buffer is edited in place under documents.mu; readers get snapshots.
type document struct {
	uri     string
	path    string
	version int32
	buf     *buffer
	// edited orders documents by their last change (documents.seq) and
	// editLine is where it was: completions take context from the most
	// recently edited buffers, around their edits.
	edited   uint64
	editLine int
}

// snapshot is an open document at one version, safe to keep.
type snapshot struct {
	uri     string
	version int32
	text    string
}

// overlay is content the editor holds for a file it never opened with
// didOpen: an applied workspace edit to a closed file lands in an editor
// buffer (Neovim loads it without attaching) while the disk keeps the old
// text. Until the disk changes or the file is opened, reads see the overlay.
type overlay struct {
	text    string
	modTime time.Time
	size    int64
}

// documents are the open buffers of one connection, keyed by canonical path.
type documents struct {
	mu       sync.Mutex // guards open, alias, overlays, history
	open     map[string]*document
	alias    map[string]string // an open document's client path -> its key
	overlays map[string]overlay
	seq      uint64 // the last document.edited given out
	// history is the recent edits of the open documents, by client path:
	// what the next-edit engine follows (nextedit.go).
	history completion.History
}

func newDocuments() *documents {
	return &documents{open: make(map[string]*document), alias: make(map[string]string), overlays: make(map[string]overlay)}
}

// keyLocked finds the key of path without touching the file system when
// path is how the client named an open document (every didChange).
func (ds *documents) keyLocked(path string) string {
	if k, ok := ds.alias[path]; ok {
		return k
	}
	return ""
}

// key returns the map key of path.
func (ds *documents) key(path string) string {
	ds.mu.Lock()
	k := ds.keyLocked(path)
	ds.mu.Unlock()
	if k != "" {
		return k
	}
	return canonical(path)
}

// canonical resolves symlinks so the editor's path and the session root's
// (symlink-free) path name the same buffer. A file that does not exist yet
// resolves through its directory.
func canonical(path string) string {
	path = filepath.Clean(path)
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		return filepath.Join(dir, filepath.Base(path))
	}
	return path
}

func (ds *documents) put(d *document) {
	key := canonical(d.path)
	ds.mu.Lock()
	defer ds.mu.Unlock()
	ds.seq++
	d.edited = ds.seq
	ds.open[key] = d
	ds.alias[d.path] = key
	delete(ds.overlays, key)
}

// get returns a snapshot of the open buffer for path, or nil.
func (ds *documents) get(path string) *snapshot {
	key := ds.key(path)
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if d := ds.open[key]; d != nil {
		return &snapshot{uri: d.uri, version: d.version, text: d.buf.String()}
	}
	return nil
}

// recent returns the recent edits of the open documents, oldest first.
func (ds *documents) recent() []completion.Change {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	return ds.history.Recent()
}

// update runs fn on the open document of path under the lock; fn edits it
// in place. found is false when path is not open.
func (ds *documents) update(path string, fn func(d *document) error) (found bool, err error) {
	key := ds.key(path)
	ds.mu.Lock()
	defer ds.mu.Unlock()
	d := ds.open[key]
	if d == nil {
		return false, nil
	}
	return true, fn(d)
}

func (ds *documents) close(path string) {
	key := ds.key(path)
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if d := ds.open[key]; d != nil {
		delete(ds.alias, d.path)
		ds.history.Forget(d.path)
	}
	delete(ds.open, key)
}

// setOverlay records content the editor now holds for a closed file.
func (ds *documents) setOverlay(path, text string) {
	key := canonical(path)
	o := overlay{text: text}
	if fi, err := os.Stat(key); err == nil {
		o.modTime, o.size = fi.ModTime(), fi.Size()
	}
	ds.mu.Lock()
	defer ds.mu.Unlock()
	ds.overlays[key] = o
}

func (ds *documents) dropOverlay(path string) {
	key := canonical(path)
	ds.mu.Lock()
	defer ds.mu.Unlock()
	delete(ds.overlays, key)
}

// forget drops what tandem holds for a file that no longer exists: its
// open buffer and any overlay.
func (ds *documents) forget(path string) {
	ds.close(path)
	ds.dropOverlay(path)
}

// read returns the editor's view of path: the open buffer, else a live
// overlay. ok is false when the disk is the truth.
func (ds *documents) read(path string) (text string, ok bool) {
	key := ds.key(path)
	ds.mu.Lock()
	d, o, hasO := ds.open[key], ds.overlays[key], false
	if d == nil {
		o, hasO = ds.overlays[key]
	} else {
		text = d.buf.String()
	}
	ds.mu.Unlock()
	if d != nil {
		return text, true
	}
	if !hasO {
		return "", false
	}
	fi, err := os.Stat(key)
	if err == nil && fi.ModTime().Equal(o.modTime) && fi.Size() == o.size {
		return o.text, true
	}
	if err != nil && o.size == 0 && o.modTime.IsZero() {
		return o.text, true // a file the editor created and has not saved yet
	}
	ds.dropOverlay(path)
	return "", false
}
