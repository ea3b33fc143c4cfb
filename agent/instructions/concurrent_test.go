//go:build unix

package instructions

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentSessions runs 50 trackers in 50 workspaces at once, sharing
// one home. Each baseline and each dynamic batch must carry its own
// workspace's markers and no other's. Run with -race.
func TestConcurrentSessions(t *testing.T) {
	const n = 50
	parent := t.TempDir()
	home := filepath.Join(parent, "home")
	write(t, filepath.Join(home, "AGENTS.md"), "GLOBAL-MARKER")
	cfg := DefaultConfig(home)
	marker := func(i int, where string) string { return fmt.Sprintf("MARK-%02d-%s;", i, where) }
	for i := range n {
		ws := filepath.Join(parent, fmt.Sprintf("ws%02d", i))
		build(t, ws, tree{
			".git": "dir:", "AGENTS.md": marker(i, "root"), "app/CLAUDE.md": marker(i, "app"),
			"app/AGENTS.local.md": marker(i, "local"), "app/deep/AGENTS.md": marker(i, "deep"), "app/deep/f.go": "x",
		})
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := filepath.Join(parent, fmt.Sprintf("ws%02d", i))
			tr := NewTracker(cfg, filepath.Join(ws, "app"))
			b, err := tr.Baseline(bg)
			if err != nil {
				errs <- err
				return
			}
			d, err := tr.Reconcile(bg, []string{filepath.Join(ws, "app/deep/f.go")})
			if err != nil {
				errs <- err
				return
			}
			if b == nil || d == nil {
				errs <- fmt.Errorf("ws%02d: baseline %v, dynamic %v", i, b != nil, d != nil)
				return
			}
			checks := []struct {
				text string
				own  []string
			}{
				{b.Text, []string{"GLOBAL-MARKER", marker(i, "root"), marker(i, "app"), marker(i, "local")}},
				{d.Text, []string{marker(i, "deep")}},
			}
			for _, c := range checks {
				for _, m := range c.own {
					if !strings.Contains(c.text, m) {
						errs <- fmt.Errorf("ws%02d lacks its own %s", i, m)
					}
				}
				if got := strings.Count(c.text, "MARK-"); got != len(c.own)-strings.Count(strings.Join(c.own, ""), "GLOBAL") {
					errs <- fmt.Errorf("ws%02d carries %d markers, want %d: %s", i, got, len(c.own), c.text)
				}
				for j := range n {
					if j != i && strings.Contains(c.text, fmt.Sprintf("MARK-%02d-", j)) {
						errs <- fmt.Errorf("ws%02d carries ws%02d's instructions", i, j)
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
