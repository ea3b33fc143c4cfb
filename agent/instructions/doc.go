// Package instructions loads workspace instruction files (AGENTS.md,
// CLAUDE.md and their .local overlays) for one session and turns them into
// user-role <system-reminder> messages: one complete baseline before the
// first model request, then small append-only batches as the session reaches
// new directories or the files change.
//
// # Which files
//
// The user-global file $TANDEM_HOME/AGENTS.md comes first. The project root
// is the nearest ancestor of the session cwd holding a root marker (default
// ".git", file or directory; without one the cwd is the root). Every
// directory from the root down to the cwd contributes at most one base file,
// the first regular file among Config.Candidates, followed by at most one
// overlay from Config.LocalCandidates. Symlinks are followed; a missing path
// or a non-regular target counts as absent. A probe that fails (stat or read
// error, a file over Config.MaxSourceBytes) makes the candidate unavailable:
// it never removes what the session already has, and an oversized winner
// does not hand its place to the next name.
//
// # How the agent core uses it
//
//	tr := instructions.NewTracker(cfg, cwd)     // one per session
//	b, err := tr.Baseline(ctx)                  // before the first request
//	// b == nil: nothing to send. Otherwise persist b.Meta as a durable
//	// session event and send b.Text as a user-role message.
//	b, err = tr.Reconcile(ctx, touchedAbsPaths) // after each successful
//	// read_file, write_file, edit_file, list_code_definition_names
//	// b == nil: nothing changed; otherwise persist and send as above.
//
// On resume, feed the persisted metadata still visible to the model back in
// log order, then look for offline changes:
//
//	err := tr.Restore(metas)     // skips (and reports) unknown versions
//	if tr.HasBaseline() {
//		b, err = tr.Reconcile(ctx, nil) // appends set/replace/remove only
//	} else {
//		b, err = tr.Baseline(ctx)       // no visible baseline: a fresh one
//	}
//
// When compaction drops the baseline from what the model sees, call Reset;
// the next Baseline is then complete again. Loaded lists what the session
// currently holds (the /instructions command, tandem/instructions);
// Unavailable says which candidates the last operation could not use and
// why. LoadConfig builds the Config from the environment and
// $TANDEM_HOME/config.json ("instructions": candidates, localCandidates,
// maxBytes, maxSourceBytes, rootMarkers).
//
// # Budget
//
// Config.MaxBytes bounds every Batch.Text, baseline or dynamic, in bytes of
// the final text. Sections go broadest first; when they do not fit, the
// broadest are dropped one by one, and only when the most specific one is
// alone is it cut (at a character boundary). A notice inside the reminder
// names what was dropped or cut, with byte counts. Dropped scopes are not
// recorded, so a later Reconcile that reaches them tries again.
//
// # Cost
//
// Each scope remembers its file's version (size, mtime, inode) and, after a
// full probe, its directory's version. While both stay the same, and are
// old enough that a same-tick edit cannot hide (two seconds), a Reconcile
// costs one stat per directory and one per loaded file, and reads nothing.
//
// A Tracker commits its state when it returns a Batch. A caller that fails
// to deliver a returned Batch must rebuild the state with Restore from the
// metadata it did persist, so nothing the model never saw suppresses a later
// load.
//
// # What it must never do
//
// It keeps no process-wide cache and no instruction text after rendering:
// per session it remembers only path, file version and SHA-1 digest per
// scope. It never parses rendered prose back into state; Meta is the only
// state channel. It never writes to stdout and never modifies files. It does
// not watch the filesystem; changes are noticed at the next Reconcile.
// Repository text is untrusted: the rendering frames it as lower-authority
// guidance and escapes any closing </system-reminder> tag inside it, which
// limits but does not remove prompt-injection risk.
package instructions
