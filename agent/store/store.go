// Package store persists sessions: an append-only JSONL event log and a
// metadata sidecar per session under $TANDEM_HOME/sessions/<id>/.
//
// The store knows records, not their meaning: the agent decides what a
// record's Kind and Data are. Listing reads only the sidecars; it never opens
// a log.
package store

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tandemhq/tandem/internal/atomicfile"
)

// Version is the format version of records and sidecars this package writes.
const Version = 1

// ErrNotFound is returned for a session id with no stored session.
var ErrNotFound = errors.New("session not found")

// ErrNewerFormat is returned for a session a newer tandem wrote: it is
// refused whole rather than half read.
var ErrNewerFormat = errors.New("session written by a newer tandem")

// Store is the sessions directory.
type Store struct {
	dir string
}

// Open returns the store rooted at dir (usually $TANDEM_HOME/sessions),
// creating it if needed.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return &Store{dir: dir}, nil
}

// Dir returns the directory the store lives in.
func (s *Store) Dir() string { return s.dir }

// Meta is a session's metadata sidecar (meta.json).
type Meta struct {
	Version int    `json:"version"`
	ID      string `json:"id"`
	Cwd     string `json:"cwd"`
	// AdditionalDirectories are the session's further roots.
	AdditionalDirectories []string `json:"additionalDirectories,omitempty"`
	Title                 string   `json:"title,omitempty"`
	// TitleBy says who wrote Title: "" the first prompt (cut),
	// TitleByModel or TitleByUser. A user's title is never replaced.
	TitleBy string `json:"titleBy,omitempty"`
	Mode    string `json:"mode,omitempty"`
	Model   string `json:"model,omitempty"`
	Effort  string `json:"effort,omitempty"` // the thought level chosen in the session
	// The session's switches turned off (agent.Toggles); omitted when on,
	// so sidecars from before them read as the defaults.
	SandboxOff     bool      `json:"sandboxOff,omitempty"`
	AutoCompactOff bool      `json:"autoCompactOff,omitempty"`
	Created        time.Time `json:"created"`
	Updated        time.Time `json:"updated"`
}

// Record is one line of a session's event log.
type Record struct {
	Version int             `json:"v"`
	Kind    string          `json:"kind"`
	Time    time.Time       `json:"time"`
	Data    json.RawMessage `json:"data"`
}

// NewID returns a fresh random session id.
func NewID() string {
	var b [12]byte
	rand.Read(b[:])
	return "s_" + hex.EncodeToString(b[:])
}

// validID keeps ids from naming paths outside the store.
func validID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, r := range id {
		if !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

func (s *Store) sessionDir(id string) (string, error) {
	if !validID(id) {
		return "", fmt.Errorf("%w: invalid id %q", ErrNotFound, id)
	}
	return filepath.Join(s.dir, id), nil
}

// Create makes the directory and sidecar of a new session and opens its log.
func (s *Store) Create(m Meta) (*Log, error) {
	dir, err := s.sessionDir(m.ID)
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, fmt.Errorf("store: create session %s: %w", m.ID, err)
	}
	l, err := openLog(dir)
	if err != nil {
		return nil, err
	}
	if err := l.SetMeta(m); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// Open opens the log of a stored session for appending.
func (s *Store) OpenLog(id string) (*Log, error) {
	dir, err := s.sessionDir(id)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "meta.json")); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
		}
		return nil, fmt.Errorf("store: %w", err)
	}
	return openLog(dir)
}

// Meta reads one session's sidecar.
func (s *Store) Meta(id string) (Meta, error) {
	dir, err := s.sessionDir(id)
	if err != nil {
		return Meta{}, err
	}
	return readMeta(filepath.Join(dir, "meta.json"))
}

func readMeta(path string) (Meta, error) {
	var m Meta
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return m, fmt.Errorf("%w: %s", ErrNotFound, filepath.Base(filepath.Dir(path)))
		}
		return m, fmt.Errorf("store: %w", err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("store: %s: %w", path, err)
	}
	if m.Version > Version {
		return m, fmt.Errorf("%w: session %s has format %d, this tandem reads up to %d; open it with a newer tandem", ErrNewerFormat, m.ID, m.Version, Version)
	}
	if m.Version != Version {
		return m, fmt.Errorf("store: %s: unknown format version %d", path, m.Version)
	}
	return m, nil
}

// List returns the stored sessions, most recently updated first. A non-empty
// cwd keeps only sessions of that directory. Unreadable sidecars are
// reported in the second result and skipped.
func (s *Store) List(cwd string) ([]Meta, []error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, []error{fmt.Errorf("store: %w", err)}
	}
	var metas []Meta
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !validID(e.Name()) {
			continue
		}
		m, err := readMeta(filepath.Join(s.dir, e.Name(), "meta.json"))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if cwd != "" && m.Cwd != cwd {
			continue
		}
		metas = append(metas, m)
	}
	sort.Slice(metas, func(i, j int) bool {
		if !metas[i].Updated.Equal(metas[j].Updated) {
			return metas[i].Updated.After(metas[j].Updated)
		}
		return metas[i].ID < metas[j].ID
	})
	return metas, errs
}

// Read returns a session's metadata and every readable record of its log.
// A corrupt line, a foreign version or a torn last line is skipped and
// described in warnings; it never fails the read.
func (s *Store) Read(id string) (Meta, []Record, []string, error) {
	m, err := s.Meta(id)
	if err != nil {
		return m, nil, nil, err
	}
	dir, _ := s.sessionDir(id)
	f, err := os.Open(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return m, nil, nil, nil
		}
		return m, nil, nil, fmt.Errorf("store: %w", err)
	}
	defer f.Close()
	var recs []Record
	var warnings []string
	r := bufio.NewReaderSize(f, 64<<10)
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			var rec Record
			switch jerr := json.Unmarshal(b, &rec); {
			case jerr != nil && err != nil:
				warnings = append(warnings, fmt.Sprintf("%s line %d: torn last line skipped (an interrupted write)", id, line))
			case jerr != nil:
				warnings = append(warnings, fmt.Sprintf("%s line %d: corrupt record skipped: %v", id, line, jerr))
			case rec.Version != Version:
				warnings = append(warnings, fmt.Sprintf("%s line %d: record version %d skipped (this tandem reads %d)", id, line, rec.Version, Version))
			default:
				recs = append(recs, rec)
			}
		}
		if err != nil {
			break
		}
	}
	return m, recs, warnings, nil
}

// Log appends to one session's event log. It is safe for concurrent use.
//
// The file only ever grows by whole records. A write the disk refuses part
// way (ENOSPC) is cut back to where it began, and its records stay in
// memory, written ahead of the next ones: the log then holds exactly what
// the session sent, in order, once there is room again.
type Log struct {
	dir string
	// meta is the sidecar's group commit while the log is open: SetMeta
	// renames it into place at once and the log's next Sync (or Close)
	// puts it on stable storage beside the log, one barrier per turn
	// instead of an fsync per rewrite.
	meta  atomicfile.Batch
	quiet quietMeta // sidecars that differ only in Updated, held back a moment
	// lastMeta is the sidecar this Log wrote last, guarded by quiet.mu:
	// SetMeta with the same content (a session closed after its turn's
	// end saved it) leaves the file alone rather than creating and
	// renaming a copy.
	lastMeta []byte

	mu sync.Mutex // guards f and unsaved
	f  *os.File
	// unsaved is what the file still lacks, whole records, in order: those
	// a failed write could not save and, before them, a newline when the
	// file ends in a torn line (a crash mid-write, or a failed write that
	// could not be cut back), so the next record starts a line of its own.
	unsaved []byte
}

// maxUnsaved bounds what a log holds in memory while the disk refuses it;
// records past it are dropped, and the error says so.
const maxUnsaved = 32 << 20

func openLog(dir string) (*Log, error) {
	path := filepath.Join(dir, "events.jsonl")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	l := &Log{dir: dir, f: f}
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], st.Size()-1); err == nil && last[0] != '\n' {
			l.unsaved = []byte{'\n'}
		}
	}
	return l, nil
}

// Append writes records at the end of the log, after any a failed write
// left unsaved. It does not fsync; call Sync at turn boundaries. On an
// error the records are kept for the next Append or Sync (up to
// maxUnsaved), and the file still ends with a whole record.
func (l *Log) Append(recs ...Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return errors.New("store: log is closed")
	}
	if len(l.unsaved) > maxUnsaved {
		// The disk has refused this much already: hold no more until it
		// takes what waits, and say that these records are lost.
		if err := l.write(); err != nil {
			return fmt.Errorf("%w (%d records dropped: more than %d MiB wait for room)", err, len(recs), maxUnsaved>>20)
		}
	}
	held := len(l.unsaved)
	for _, r := range recs {
		if r.Version == 0 {
			r.Version = Version
		}
		if r.Time.IsZero() {
			r.Time = time.Now().UTC()
		}
		var err error
		if l.unsaved, err = appendRecord(l.unsaved, r); err != nil {
			l.unsaved = l.unsaved[:held]
			return fmt.Errorf("store: encode %s record: %w", r.Kind, err)
		}
		l.unsaved = append(l.unsaved, '\n')
	}
	return l.write()
}

// appendRecord appends r's line, as json.Marshal(r) writes it, without
// encoding/json's scan of Data: the session's records are json.Marshal's
// output already, a tool result's whole text among them. Data holding a
// newline (indented JSON) is compacted, as the line must not end early;
// JSON that is not valid is the caller's error, and a line that holds
// some is skipped with a warning when read.
func appendRecord(b []byte, r Record) ([]byte, error) {
	kind, err := json.Marshal(r.Kind)
	if err != nil {
		return b, err
	}
	t, err := r.Time.MarshalJSON()
	if err != nil {
		return b, err
	}
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(r.Version), 10)
	b = append(b, `,"kind":`...)
	b = append(b, kind...)
	b = append(b, `,"time":`...)
	b = append(b, t...)
	b = append(b, `,"data":`...)
	switch {
	case len(r.Data) == 0:
		b = append(b, "null"...)
	case bytes.IndexByte(r.Data, '\n') >= 0:
		var c bytes.Buffer
		if err := json.Compact(&c, r.Data); err != nil {
			return b, err
		}
		b = append(b, c.Bytes()...)
	default:
		b = append(b, r.Data...)
	}
	return append(b, '}'), nil
}

// write appends l.unsaved to the file, with l.mu held. When the write
// fails part way, the file is cut back to its length before it, so it
// never ends in part of a record; what could not be cut back stays in the
// file and only the rest is kept, behind a newline.
func (l *Log) write() error {
	if len(l.unsaved) == 0 {
		return nil
	}
	n, err := l.f.Write(l.unsaved)
	if err == nil {
		if cap(l.unsaved) > 64<<10 {
			l.unsaved = nil // a long outage's buffer is not kept for good
		} else {
			l.unsaved = l.unsaved[:0]
		}
		return nil
	}
	if n > 0 {
		if terr := l.cutBack(n); terr != nil {
			// The n bytes stay: keep only what they lack. Whole records
			// among them are saved; a part of one is left torn, and the
			// record is written again after a newline.
			whole := bytes.LastIndexByte(l.unsaved[:n], '\n') + 1
			rest := l.unsaved[whole:]
			if whole < n {
				rest = append([]byte{'\n'}, rest...)
			}
			l.unsaved = append(l.unsaved[:0], rest...)
		}
	}
	return saveError(err)
}

// cutBack truncates the file by the n bytes a failed write appended.
func (l *Log) cutBack(n int) error {
	st, err := l.f.Stat()
	if err != nil {
		return err
	}
	if st.Size() < int64(n) {
		return fmt.Errorf("store: the log is shorter (%d bytes) than the failed write (%d)", st.Size(), n)
	}
	return l.f.Truncate(st.Size() - int64(n))
}

// Sync writes what earlier appends left unsaved and flushes the log to
// stable storage.
func (l *Log) Sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	if err := l.write(); err != nil {
		return err
	}
	return l.syncBoth()
}

// syncBoth puts the log file and the sidecar written since the last sync
// on stable storage, side by side: the two fsyncs can share the file
// system's journal commit. The caller holds l.mu.
func (l *Log) syncBoth() error {
	meta := make(chan error, 1)
	go func() { meta <- l.meta.Sync() }()
	err := l.f.Sync()
	if merr := <-meta; err == nil {
		err = merr
	}
	if err != nil {
		return saveError(err)
	}
	return nil
}

// SetMeta replaces the sidecar atomically (temp file + rename). On an open
// log its fsync waits for the log's next Sync or Close; on a closed one
// (a stored session renamed) the write is on stable storage at once. On an
// open log, a sidecar differing from the last one written only in its
// Updated time may wait up to metaQuiet, or until Close (meta_quiet.go).
func (l *Log) SetMeta(m Meta) error {
	m.Version = Version
	l.quiet.mu.Lock()
	defer l.quiet.mu.Unlock()
	now := time.Now()
	l.mu.Lock()
	open := l.f != nil
	l.mu.Unlock()
	if open && l.quiet.hold(m, now) {
		return nil
	}
	if err := l.writeMeta(m); err != nil {
		return err
	}
	l.quiet.wrote(m, now)
	return nil
}

// writeMeta writes m as the sidecar. The caller holds l.quiet.mu.
func (l *Log) writeMeta(m Meta) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if bytes.Equal(b, l.lastMeta) {
		return nil
	}
	l.mu.Lock()
	open := l.f != nil
	l.mu.Unlock()
	switch {
	case !open:
		err = atomicfile.Write(filepath.Join(l.dir, "meta.json"), b, 0o600)
	default:
		var d *atomicfile.Dir
		if d, err = atomicfile.OpenDir(l.dir); err == nil {
			err = l.meta.WriteIn(d, "meta.json", b, 0o600)
			d.Close()
		}
	}
	if err != nil {
		return saveError(err)
	}
	l.lastMeta = b
	return nil
}

// Close writes what is unsaved, syncs and closes the log; what the disk
// still refuses is lost, and the error says so. Closing twice is harmless.
func (l *Log) Close() error {
	merr := l.flushMeta() // before l.mu: writing the sidecar reads whether the log is open
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return merr
	}
	err := l.write()
	if err != nil {
		err = fmt.Errorf("%w (%d records lost)", err, bytes.Count(bytes.TrimLeft(l.unsaved, "\n"), []byte{'\n'}))
	}
	if serr := l.syncBoth(); err == nil {
		err = serr
	}
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	if err == nil {
		err = merr
	}
	return err
}

// Title makes a session title from the first prompt: its first line, trimmed
// to 80 characters.
func Title(prompt string) string {
	prompt = strings.TrimSpace(prompt)
	if i := strings.IndexByte(prompt, '\n'); i >= 0 {
		prompt = prompt[:i]
	}
	if r := []rune(prompt); len(r) > 80 {
		prompt = string(r[:79]) + "…"
	}
	return prompt
}
