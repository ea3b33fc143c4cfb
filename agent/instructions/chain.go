package instructions

import (
	"cmp"
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tandemhq/tandem/internal/pathx"
)

// findRoot walks up from cwd to the nearest directory holding a root marker.
// Without one, cwd is the root. A marker that cannot be probed counts as
// missing there, so a flaky parent never captures the session.
func findRoot(ctx context.Context, fsys fileSystem, cwd string, markers []string) (string, error) {
	for dir := cwd; ; {
		for _, m := range markers {
			if err := ctx.Err(); err != nil {
				return "", err
			}
			if _, err := fsys.Stat(filepath.Join(dir, m)); err == nil {
				return dir, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return cwd, nil
		}
		dir = parent
	}
}

// dirChain lists the directories from root down to dir inclusive, or nil
// when dir is not inside root.
func dirChain(root, dir string) []string {
	rel, ok := pathx.Within(root, dir)
	if !ok {
		return nil
	}
	chain := []string{root}
	if rel == "." {
		return chain
	}
	cur := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		chain = append(chain, cur)
	}
	return chain
}

// slotsFor adds the base and overlay slots of each directory to set,
// skipping the base slot of the home directory, whose AGENTS.md is already
// the user-global scope.
func slotsFor(set map[slotKey]struct{}, dirs []string, home string) {
	for _, d := range dirs {
		if d != home {
			set[slotKey{kindBase, d}] = struct{}{}
		}
		set[slotKey{kindLocal, d}] = struct{}{}
	}
}

// ordered sorts slots from broadest to most specific: the user scope, then
// shallower directories first, base before overlay within a directory.
func ordered(set map[slotKey]struct{}) []slotKey {
	keys := make([]slotKey, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareSlots)
	return keys
}

func compareSlots(a, b slotKey) int {
	if (a.kind == kindUser) != (b.kind == kindUser) {
		if a.kind == kindUser {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(depth(a.dir), depth(b.dir)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.dir, b.dir); c != 0 {
		return c
	}
	return cmp.Compare(a.kind, b.kind)
}

func depth(dir string) int { return strings.Count(dir, string(filepath.Separator)) }
