//go:build unix

package instructions

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// age dates every entry under base an hour back, so directory and file
// versions become trustworthy and the fast path (prober.fast) applies.
func age(t testing.TB, base string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.Walk(base, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.Mode()&os.ModeSymlink != 0 {
			return err // Chtimes would follow the link
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFastPath: once versions are trusted, an unchanged reconcile skips
// probing vacant candidates, yet every kind of change is still seen.
func TestFastPath(t *testing.T) {
	start := tree{"r/.git": "dir:", "r/AGENTS.md": "ROOT", "r/s/CLAUDE.md": "S", "r/s/f.go": "x", "r/s/t/f.go": "x", "target/ok.md": "TARGET"}
	cases := []struct {
		name   string
		tree   tree
		change func(t *testing.T, base string)
		want   []string
	}{
		{name: "a file created in a known directory", change: func(t *testing.T, b string) {
			write(t, filepath.Join(b, "r/s/AGENTS.md"), "NEW")
		}, want: []string{"replace s/AGENTS.md"}},
		{name: "a file created in a vacant directory on the chain", change: func(t *testing.T, b string) {
			write(t, filepath.Join(b, "r/s/t/AGENTS.local.md"), "NEW")
		}, want: []string{"set s/t/AGENTS.local.md"}},
		{name: "an in-place edit", change: func(t *testing.T, b string) {
			write(t, filepath.Join(b, "r/AGENTS.md"), "ROOF")
		}, want: []string{"replace AGENTS.md"}},
		{name: "the winner deleted", change: func(t *testing.T, b string) {
			os.Remove(filepath.Join(b, "r/s/CLAUDE.md"))
		}, want: []string{"remove s/CLAUDE.md"}},
		{name: "a dangling symlink whose target appears elsewhere",
			tree: tree{"r/s/AGENTS.md": "link:../../target/later.md"},
			change: func(t *testing.T, b string) {
				write(t, filepath.Join(b, "target/later.md"), "LATER")
			}, want: []string{"replace s/AGENTS.md"}},
		{name: "a symlinked winner whose target changes",
			tree: tree{"r/s/AGENTS.md": "link:../../target/ok.md"},
			change: func(t *testing.T, b string) {
				write(t, filepath.Join(b, "target/ok.md"), "TARGET v2")
			}, want: []string{"replace s/AGENTS.md"}},
		{name: "nothing", change: func(*testing.T, string) {}, want: nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base, cfg := workspace(t, start)
			build(t, base, tc.tree)
			age(t, base)
			h := newHookFS()
			tr := newTracker(cfg, filepath.Join(base, "r/s"), h)
			if _, err := tr.Baseline(bg); err != nil {
				t.Fatal(err)
			}
			touch := []string{filepath.Join(base, "r/s/t/f.go")}
			counts := make([]int, 3)
			for i := range counts {
				h.mu.Lock()
				h.stats = 0
				h.mu.Unlock()
				if b, err := tr.Reconcile(bg, touch); b != nil || err != nil {
					t.Fatalf("warm-up %d: %v, %v", i, paths(b), err)
				}
				counts[i] = h.stats
			}
			if tc.tree == nil && counts[2] >= counts[0] {
				t.Errorf("stats per unchanged reconcile %v: the fast path never engaged", counts)
			}
			tc.change(t, base)
			b, err := tr.Reconcile(bg, touch)
			if err != nil {
				t.Fatal(err)
			}
			if !equal(paths(b), tc.want) {
				t.Fatalf("got %q, want %q", paths(b), tc.want)
			}
			if b != nil {
				checkDigests(t, b)
			}
		})
	}
}
