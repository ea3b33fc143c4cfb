package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// Unguarded is what of the roots' protected entries a command could still
// create: a read-only bind needs an entry to bind, and a Landlock grant on
// a root covers every name in it, so a protected entry that does not exist
// when the command starts (AGENTS.md, .vscode/, .git/hooks in a repository
// made without them, a new *.code-workspace) can be created. Nothing closes
// that without writing placeholders into the user's tree or refusing every
// new file at the top of the root, so the runner takes a Snapshot before
// the command and reports afterwards, with Created, what appeared.
type Unguarded struct {
	start  time.Time
	absent []string            // protected names missing at the start
	roots  map[string]struct{} // roots, for the *.code-workspace check
	mtimes map[string]time.Time
}

// Snapshot records which protected entries of roots are missing now: one
// lstat per protected name and one stat per root.
func Snapshot(roots []string) Unguarded {
	// File times come from the kernel's coarse clock, up to a tick behind
	// time.Now: the margin errs toward reporting a file made just before.
	u := Unguarded{start: time.Now().Add(-ctimeSlack), roots: map[string]struct{}{}, mtimes: map[string]time.Time{}}
	for _, root := range roots {
		u.roots[root] = struct{}{}
		if fi, err := os.Stat(root); err == nil {
			u.mtimes[root] = fi.ModTime()
		}
		for _, n := range protectedNames {
			p := filepath.Join(root, n)
			if _, err := os.Lstat(p); err != nil {
				u.absent = append(u.absent, p)
			}
		}
	}
	return u
}

// Created lists the protected entries that exist now but were missing at
// the Snapshot, sorted. A root whose directory did not change has no new
// *.code-workspace file, so it is listed only when it did; then a
// workspace file whose inode changed after the Snapshot is new, since
// the existing ones were bound read-only (and the command cannot set a
// ctime back, as it can an mtime).
func (u Unguarded) Created() []string {
	var out []string
	for _, p := range u.absent {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	for root := range u.roots {
		fi, err := os.Stat(root)
		if err != nil || fi.ModTime().Equal(u.mtimes[root]) {
			continue
		}
		ws, _ := filepath.Glob(filepath.Join(root, "*.code-workspace"))
		for _, p := range ws {
			if fi, err := os.Lstat(p); err == nil && !changedAt(fi).Before(u.start) {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ctimeSlack covers the coarse clock's lag (one tick, 10 ms at HZ=100).
const ctimeSlack = 20 * time.Millisecond

func changedAt(fi os.FileInfo) time.Time {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fi.ModTime()
	}
	return time.Unix(st.Ctim.Unix())
}
