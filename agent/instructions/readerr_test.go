//go:build unix

package instructions

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestUnreadable covers read failures. The tests run as root, where chmod
// 000 does not stop a read, so failures come from real filesystem races
// staged through hookFS (the file changes between our stat and our read) or
// from an Open error injected for one path. Either way the candidate is
// unavailable: no fall-through to the next name, and no removal of what was
// loaded.
func TestUnreadable(t *testing.T) {
	const max = 1 << 20
	cases := []struct {
		name string
		// stage arranges the failure for file (r/AGENTS.md); CLAUDE.md exists too.
		stage     func(t *testing.T, h *hookFS, file string)
		reason    string
		boundRead bool // the read must stop just past max bytes
	}{
		{name: "open fails", reason: "input/output error", stage: func(t *testing.T, h *hookFS, file string) {
			h.openErr[file] = syscall.EIO
		}},
		{name: "stat lies about the size of a 5 MiB file", reason: "grew past", boundRead: true, stage: func(t *testing.T, h *hookFS, file string) {
			write(t, file, strings.Repeat("L", 5<<20))
			h.statSize[file] = 10
		}},
		{name: "file grows between stat and read", reason: "grew past", boundRead: true, stage: func(t *testing.T, h *hookFS, file string) {
			h.afterStat[file] = func() {
				f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Error(err)
					return
				}
				defer f.Close()
				f.Write(make([]byte, 5<<20))
			}
		}},
		{name: "file replaced by a directory between stat and read", reason: "", stage: func(t *testing.T, h *hookFS, file string) {
			h.afterStat[file] = func() {
				os.Remove(file)
				os.Mkdir(file, 0o755)
			}
		}},
	}
	for _, tc := range cases {
		for _, phase := range []string{"baseline", "reconcile"} {
			t.Run(tc.name+"/"+phase, func(t *testing.T) {
				base, cfg := workspace(t, tree{"r/.git": "dir:", "r/AGENTS.md": "ROOT", "r/CLAUDE.md": "CLAUDE"})
				cfg.MaxSourceBytes = max
				file := filepath.Join(base, "r/AGENTS.md")
				h := newHookFS()
				tr := newTracker(cfg, filepath.Join(base, "r"), h)
				if phase == "reconcile" {
					b, err := tr.Baseline(bg)
					if err != nil || !equal(paths(b), []string{"set AGENTS.md"}) {
						t.Fatalf("baseline = %v, %v", paths(b), err)
					}
					write(t, file, "ROOT changed so the version differs")
				}
				h.mu.Lock()
				tc.stage(t, h, file)
				h.mu.Unlock()
				var b *Batch
				var err error
				if phase == "baseline" {
					b, err = tr.Baseline(bg)
				} else {
					b, err = tr.Reconcile(bg, []string{filepath.Join(base, "r/x.go")})
				}
				if err != nil {
					t.Fatal(err)
				}
				if b != nil {
					t.Fatalf("got %q; an unavailable winner must neither fall through nor remove:\n%s", paths(b), b.Text)
				}
				probs := tr.Unavailable()
				if len(probs) != 1 || probs[0].Path != file || !strings.Contains(probs[0].Reason, tc.reason) {
					t.Fatalf("unavailable = %+v, want %s (%s)", probs, file, tc.reason)
				}
				if tc.boundRead && h.bytesRead[file] > max+64<<10 {
					t.Errorf("read %d bytes of a file capped at %d", h.bytesRead[file], max)
				}
				if phase == "reconcile" {
					if l := tr.Loaded(); len(l) != 1 || l[0].Path != "AGENTS.md" {
						t.Errorf("loaded = %+v, want AGENTS.md kept", l)
					}
				}
			})
		}
	}
}

// TestCancellation: a cancelled context stops the operation at the next
// stat or read, returns the context's error and commits nothing.
func TestCancellation(t *testing.T) {
	files := tree{"r/.git": "dir:", "r/AGENTS.md": "ROOT", "r/a/AGENTS.md": "A", "r/a/b/AGENTS.md": "B"}
	for _, at := range []int{1, 3, 6, 9} {
		for _, op := range []string{"baseline", "reconcile"} {
			t.Run(fmt.Sprintf("%s/stat%d", op, at), func(t *testing.T) {
				base, cfg := workspace(t, files)
				h := newHookFS()
				cwd := filepath.Join(base, "r/a/b")
				tr := newTracker(cfg, cwd, h)
				if op == "reconcile" {
					if _, err := tr.Baseline(bg); err != nil {
						t.Fatal(err)
					}
					write(t, filepath.Join(base, "r/a/b/c/AGENTS.md"), "C")
					write(t, filepath.Join(base, "r/AGENTS.md"), "ROOT2")
				}
				before := tr.Loaded()
				ctx, cancel := contextWithCancel()
				h.mu.Lock()
				h.stats = 0
				h.onStat = func(n int) {
					if n == at {
						cancel()
					}
				}
				h.mu.Unlock()
				var err error
				if op == "baseline" {
					_, err = tr.Baseline(ctx)
				} else {
					_, err = tr.Reconcile(ctx, []string{filepath.Join(base, "r/a/b/c/x")})
				}
				if !errors.Is(err, errCanceled) {
					t.Fatalf("cancel at stat %d: err = %v", at, err)
				}
				h.mu.Lock()
				after := h.stats
				h.mu.Unlock()
				if after != at {
					t.Errorf("%d stats ran after cancelling at %d", after-at, at)
				}
				if got := tr.Loaded(); len(got) != len(before) {
					t.Errorf("state changed by a cancelled %s: %v -> %v", op, before, got)
				}
			})
		}
	}
}
