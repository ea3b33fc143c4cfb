package instructions

import (
	"context"

	"path/filepath"
)

// change is one transition found by probing, not yet rendered.
type change struct {
	key    slotKey
	action Action
	res    probeResult
	prev   *scopeState // live state it replaces or removes; nil for set
}

// Baseline composes the complete set of instructions a session in cwd gets
// before its first model request (or again after Reset, or after Restore
// found no visible baseline) and makes it the state of every scope on the
// baseline chain. It returns nil when there is nothing to send: loading is
// disabled or no file applies. Candidates the budget left out stay unknown,
// so a later Reconcile that reaches them adds them.
func (t *Tracker) Baseline(ctx context.Context) (*Batch, error) {
	t.opMu.Lock()
	defer t.opMu.Unlock()
	if !t.Enabled() {
		return nil, nil
	}
	root, err := t.ensureRoot(ctx)
	if err != nil {
		return nil, err
	}
	p := t.prober()
	var changes []change
	var problems []Problem
	slots := t.baseSlots(root)
	for _, k := range ordered(slots) {
		res, err := p.probe(ctx, k.dir, t.namesFor(k), nil, nil)
		if err != nil {
			return nil, err
		}
		problems = append(problems, res.problems...)
		if res.out == outFound {
			changes = append(changes, change{key: k, action: ActionSet, res: res})
		}
	}
	changes, sent := splitSent(changes, t.takeSent())
	b, states := t.compose(true, root, changes, problems)
	b, states = t.addSent(b, states, root, sent, problems)
	// Scopes outside the baseline chain that the model still sees (dynamic
	// events that survived compaction, via Restore) keep suppressing
	// duplicates; everything on the chain is what this baseline says.
	scopes := make(map[slotKey]*scopeState, len(states))
	t.stateMu.Lock()
	for k, s := range t.scopes {
		if _, onChain := slots[k]; !onChain && s.visible() {
			scopes[k] = s
		}
	}
	t.stateMu.Unlock()
	for _, s := range states {
		scopes[s.key] = s
	}
	t.stateMu.Lock()
	t.scopes = scopes
	t.baseline = true
	t.problems = problems
	t.stateMu.Unlock()
	return b, nil
}

// Reconcile brings the session up to date after a tool touched paths
// (absolute; relative ones are taken from cwd): every directory from the
// root down to each path, plus every scope the session already knows, is
// probed again. paths == nil re-checks the known scopes and the baseline
// chain, which is what a resumed session needs. It returns nil when nothing
// the model sees has changed.
func (t *Tracker) Reconcile(ctx context.Context, paths []string) (*Batch, error) {
	t.opMu.Lock()
	defer t.opMu.Unlock()
	if !t.Enabled() {
		return nil, nil
	}
	root, err := t.ensureRoot(ctx)
	if err != nil {
		return nil, err
	}
	t.stateMu.Lock()
	known := make(map[slotKey]*scopeState, len(t.scopes))
	for k, s := range t.scopes {
		known[k] = s
	}
	t.stateMu.Unlock()

	set := make(map[slotKey]struct{}, len(known)+8)
	for k, s := range known {
		if s.visible() {
			set[k] = struct{}{}
		}
	}
	if paths == nil {
		for k := range t.baseSlots(root) {
			set[k] = struct{}{}
		}
	}
	for _, p := range paths {
		dir, err := t.touchedDir(ctx, p)
		if err != nil {
			return nil, err
		}
		slotsFor(set, dirChain(root, dir), t.cfg.Home)
	}

	pr := t.prober()
	dirVers := map[string]*fileVersion{}
	var changes []change
	var problems []Problem
	var quiet []*scopeState // probe cache and version refreshes, nothing visible
	for _, k := range ordered(set) {
		prev := known[k]
		dv, err := t.dirVersion(ctx, dirVers, k.dir)
		if err != nil {
			return nil, err
		}
		res, err := pr.probe(ctx, k.dir, t.namesFor(k), prev, dv)
		if err != nil {
			return nil, err
		}
		problems = append(problems, res.problems...)
		switch res.out {
		case outFound:
			switch {
			case prev.live() && prev.file == res.file && prev.digest == res.digest:
				if !prev.verOK || prev.ver != res.ver || !prev.readAt.Equal(res.readAt) || probeMoved(prev, res) {
					s := prev.withProbe(res)
					s.ver, s.verOK, s.readAt = res.ver, true, res.readAt
					quiet = append(quiet, s)
				}
			case prev.live():
				changes = append(changes, change{key: k, action: ActionReplace, res: res, prev: prev})
			default:
				changes = append(changes, change{key: k, action: ActionSet, res: res})
			}
		case outAbsent:
			switch {
			case prev.live():
				changes = append(changes, change{key: k, action: ActionRemove, res: res, prev: prev})
			case prev != nil && probeMoved(prev, res):
				quiet = append(quiet, prev.withProbe(res)) // tombstone or vacancy stays
			case prev == nil && res.clean:
				quiet = append(quiet, scopeState{key: k, empty: true}.withProbe(res))
			}
		}
	}
	var b *Batch
	var states []*scopeState
	if len(changes) > 0 {
		b, states = t.compose(false, root, changes, problems)
	}
	t.stateMu.Lock()
	t.problems = problems
	for _, s := range quiet {
		t.scopes[s.key] = s
	}
	for _, s := range states {
		t.scopes[s.key] = s
	}
	t.stateMu.Unlock()
	return b, nil
}

// dirVersion stats a directory once per operation.
func (t *Tracker) dirVersion(ctx context.Context, seen map[string]*fileVersion, dir string) (*fileVersion, error) {
	if v, ok := seen[dir]; ok {
		return v, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var v *fileVersion
	if fi, err := t.fsys.Stat(dir); err == nil && fi.IsDir() {
		x := versionOf(fi)
		v = &x
	}
	seen[dir] = v
	return v, nil
}

// probeMoved reports whether res carries a probe cache prev lacks.
func probeMoved(prev *scopeState, res probeResult) bool {
	return prev.clean != res.clean || prev.dirVer != res.dirVer || !prev.probedAt.Equal(res.probedAt)
}

// touchedDir is the deepest directory a touched path makes relevant: the
// path itself when it is a directory, else its parent.
func (t *Tracker) touchedDir(ctx context.Context, p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(t.cwd, p)
	}
	p = filepath.Clean(p)
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if fi, err := t.fsys.Stat(p); err == nil && fi.IsDir() {
		return p, nil
	}
	return filepath.Dir(p), nil
}
