package instructions

// compose renders changes (broadest first) under the budget and returns the
// batch with the states of the changes it actually carried.
func (t *Tracker) compose(baseline bool, root string, changes []change, problems []Problem) (*Batch, []*scopeState) {
	if len(changes) == 0 {
		return nil, nil
	}
	secs := make([]section, len(changes))
	for i, c := range changes {
		s := section{action: c.action, scope: scopeID(c.key, root), size: c.res.size}
		switch c.action {
		case ActionRemove:
			s.path = escape(c.prev.path)
		default:
			s.path = escape(t.display(c.key, root, c.res.file))
			s.content = escape(string(c.res.content))
			if c.prev != nil && c.prev.file != c.res.file {
				s.previous = escape(c.prev.path)
			}
		}
		secs[i] = s
	}
	r := render(baseline, secs, t.cfg.MaxBytes)
	if r.text == "" {
		return nil, nil
	}
	meta := Meta{Version: MetaVersion, Baseline: baseline, Bytes: len(r.text), Budget: t.cfg.MaxBytes, Unavailable: problems}
	for i, c := range changes[:r.first] {
		meta.Omitted = append(meta.Omitted, Omission{Scope: secs[i].scope, Path: secs[i].path, Action: c.action, Bytes: c.res.size})
	}
	var states []*scopeState
	for i := r.first; i < len(changes); i++ {
		c := changes[i]
		ch := Change{Action: c.action, Scope: secs[i].scope}
		st := &scopeState{key: c.key}
		if c.action == ActionRemove {
			ch.Path, ch.File = c.prev.path, c.prev.file
			st = st.withProbe(c.res)
			st.file, st.path, st.removed = c.prev.file, c.prev.path, true
		} else {
			ch.Path = t.display(c.key, root, c.res.file)
			ch.File, ch.Digest, ch.Bytes = c.res.file, c.res.digest, c.res.size
			if c.prev != nil && c.prev.file != c.res.file {
				ch.Previous = c.prev.path
			}
			if r.truncated && i == len(changes)-1 {
				ch.Truncated, ch.Shown = true, r.shown
			}
			st = scopeState{key: c.key, file: c.res.file, path: ch.Path, digest: c.res.digest,
				ver: c.res.ver, verOK: true, readAt: c.res.readAt, bytes: c.res.size, truncated: ch.Truncated}.withProbe(c.res)
		}
		meta.Changes = append(meta.Changes, ch)
		states = append(states, st)
	}
	if meta.Changes == nil {
		meta.Changes = []Change{}
	}
	return &Batch{Text: r.text, Meta: meta}, states
}
