package instructions

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/tandemhq/tandem/internal/pathx"
)

// scopeState is everything a session remembers about one scope: no text.
type scopeState struct {
	key       slotKey
	file      string // the loaded (or, for a tombstone, last removed) file
	path      string // as shown to the model
	digest    string
	removed   bool // tombstone: a reappearing file is a new set
	ver       fileVersion
	verOK     bool // ver describes the file the digest came from
	readAt    time.Time
	bytes     int64
	truncated bool

	// empty marks a slot probed and found vacant: nothing the model saw,
	// kept only so the fast path can skip probing it again.
	empty bool
	// The probe cache (see prober.fast).
	clean    bool
	dirVer   fileVersion
	probedAt time.Time
}

// live reports whether the model currently holds this scope's instructions.
func (s *scopeState) live() bool { return s != nil && !s.removed && !s.empty }

// visible reports whether the scope is part of what the model was told
// (loaded, or a tombstone), as opposed to a mere probe cache entry.
func (s *scopeState) visible() bool { return s != nil && !s.empty }

// withProbe returns a copy of s carrying res's probe cache.
func (s scopeState) withProbe(res probeResult) *scopeState {
	s.clean, s.dirVer, s.probedAt = res.clean, res.dirVer, res.probedAt
	return &s
}

// Tracker holds one session's instruction state. Its methods are safe for
// concurrent use; operations that probe files run one at a time.
type Tracker struct {
	cfg  Config
	cwd  string
	fsys fileSystem
	now  func() time.Time

	opMu sync.Mutex // serialises Baseline, Reconcile, Restore and Reset

	stateMu  sync.Mutex // guards the fields below
	root     string     // found lazily; "" until the first probe
	scopes   map[slotKey]*scopeState
	baseline bool      // a baseline is visible to the model
	problems []Problem // unavailable candidates seen by the last operation
	sent     []string  // prompt texts for the next Baseline (ClientSent)
}

// NewTracker returns the tracker for a session whose working directory is
// cwd (absolute). It touches no file until the first operation.
func NewTracker(cfg Config, cwd string) *Tracker {
	return newTracker(cfg, cwd, osFS{})
}

func newTracker(cfg Config, cwd string, fsys fileSystem) *Tracker {
	return &Tracker{
		cfg:    cfg.normalized(),
		cwd:    filepath.Clean(cwd),
		fsys:   fsys,
		now:    time.Now,
		scopes: map[slotKey]*scopeState{},
	}
}

// Enabled reports whether the budget allows loading at all.
func (t *Tracker) Enabled() bool { return t.cfg.MaxBytes > 0 }

// Root is the project root, once an operation has found it.
func (t *Tracker) Root() string {
	t.stateMu.Lock()
	defer t.stateMu.Unlock()
	return t.root
}

// HasBaseline reports whether a baseline is in effect: sent by Baseline or
// found by Restore, and not dropped by Reset.
func (t *Tracker) HasBaseline() bool {
	t.stateMu.Lock()
	defer t.stateMu.Unlock()
	return t.baseline
}

// Reset forgets everything, as when the baseline left the model's view; the
// next Baseline is complete.
func (t *Tracker) Reset() {
	t.opMu.Lock()
	defer t.opMu.Unlock()
	t.stateMu.Lock()
	defer t.stateMu.Unlock()
	t.scopes = map[slotKey]*scopeState{}
	t.baseline = false
}

// Unavailable lists the candidates the last Baseline or Reconcile could
// not probe or read (oversized, unreadable), even when it returned nil.
func (t *Tracker) Unavailable() []Problem {
	t.stateMu.Lock()
	defer t.stateMu.Unlock()
	return append([]Problem(nil), t.problems...)
}

// Loaded lists the scopes currently in effect, broadest first.
func (t *Tracker) Loaded() []Scope {
	t.stateMu.Lock()
	defer t.stateMu.Unlock()
	set := map[slotKey]struct{}{}
	for k, s := range t.scopes {
		if s.live() {
			set[k] = struct{}{}
		}
	}
	var out []Scope
	for _, k := range ordered(set) {
		s := t.scopes[k]
		out = append(out, Scope{
			Scope: scopeID(k, t.rootOrCwd()), Path: s.path, File: s.file,
			Digest: s.digest, Bytes: s.bytes, Truncated: s.truncated,
		})
	}
	return out
}

func (t *Tracker) rootOrCwd() string {
	if t.root != "" {
		return t.root
	}
	return t.cwd
}

// Restore rebuilds the state from persisted metadata, oldest first. A
// baseline starts over from its own changes. Metadata of another version, or
// a change it cannot place, is skipped and reported in the error; the rest
// still applies.
func (t *Tracker) Restore(metas []Meta) error {
	t.opMu.Lock()
	defer t.opMu.Unlock()
	scopes := map[slotKey]*scopeState{}
	baseline := false
	var errs []error
	for i, m := range metas {
		if m.Version != MetaVersion {
			errs = append(errs, fmt.Errorf("instruction event %d has version %d, want %d; skipped", i, m.Version, MetaVersion))
			continue
		}
		if m.Baseline {
			scopes = map[slotKey]*scopeState{}
			baseline = true
		}
		for _, c := range m.Changes {
			k, err := keyFromChange(c)
			if err != nil {
				errs = append(errs, fmt.Errorf("instruction event %d: %w; skipped", i, err))
				continue
			}
			switch c.Action {
			case ActionSet, ActionReplace:
				scopes[k] = &scopeState{key: k, file: filepath.Clean(c.File), path: c.Path, digest: c.Digest, bytes: c.Bytes, truncated: c.Truncated}
			case ActionRemove:
				scopes[k] = &scopeState{key: k, file: filepath.Clean(c.File), path: c.Path, removed: true}
			default:
				errs = append(errs, fmt.Errorf("instruction event %d: unknown action %q; skipped", i, c.Action))
			}
		}
	}
	t.stateMu.Lock()
	t.scopes = scopes
	t.baseline = baseline
	t.stateMu.Unlock()
	return errors.Join(errs...)
}

// ensureRoot finds the project root once per tracker.
func (t *Tracker) ensureRoot(ctx context.Context) (string, error) {
	t.stateMu.Lock()
	root := t.root
	t.stateMu.Unlock()
	if root != "" {
		return root, nil
	}
	root, err := findRoot(ctx, t.fsys, t.cwd, t.cfg.RootMarkers)
	if err != nil {
		return "", err
	}
	t.stateMu.Lock()
	t.root = root
	t.stateMu.Unlock()
	return root, nil
}

// baseSlots are the scopes a new session in cwd would load.
func (t *Tracker) baseSlots(root string) map[slotKey]struct{} {
	set := map[slotKey]struct{}{}
	if t.cfg.Home != "" {
		set[slotKey{kindUser, t.cfg.Home}] = struct{}{}
	}
	slotsFor(set, dirChain(root, t.cwd), t.cfg.Home)
	return set
}

func (t *Tracker) namesFor(k slotKey) []string {
	switch k.kind {
	case kindUser:
		return []string{GlobalFile}
	case kindLocal:
		return t.cfg.LocalCandidates
	}
	return t.cfg.Candidates
}

func (t *Tracker) display(k slotKey, root, file string) string {
	if k.kind == kindUser {
		return t.cfg.HomeLabel + "/" + filepath.Base(file)
	}
	if rel, ok := pathx.Within(root, file); ok {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(file)
}

func (t *Tracker) prober() *prober {
	return &prober{fsys: t.fsys, maxSrc: t.cfg.MaxSourceBytes, now: t.now}
}
