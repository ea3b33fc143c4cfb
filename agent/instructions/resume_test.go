//go:build unix

package instructions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResume plays a session, persists its metadata through JSON, changes
// files while "offline", and checks what a restored tracker appends.
func TestResume(t *testing.T) {
	start := tree{"r/.git": "dir:", "r/AGENTS.md": "ROOT", "r/s/AGENTS.md": "S", "r/n/CLAUDE.md": "NESTED", "r/n/f": "f"}
	cases := []struct {
		name    string
		offline func(t *testing.T, base string)
		want    []string // what Reconcile(nil) after Restore appends
	}{
		{name: "nothing changed appends nothing", offline: func(*testing.T, string) {}, want: nil},
		{name: "an edited baseline file is replaced", offline: func(t *testing.T, b string) {
			write(t, filepath.Join(b, "r/AGENTS.md"), "ROOT edited offline")
		}, want: []string{"replace AGENTS.md"}},
		{name: "an edited dynamic scope is replaced", offline: func(t *testing.T, b string) {
			write(t, filepath.Join(b, "r/n/CLAUDE.md"), "NESTED v2")
		}, want: []string{"replace n/CLAUDE.md"}},
		{name: "a removed file is removed", offline: func(t *testing.T, b string) {
			os.Remove(filepath.Join(b, "r/s/AGENTS.md"))
		}, want: []string{"remove s/AGENTS.md"}},
		{name: "a file added in the baseline chain is set", offline: func(t *testing.T, b string) {
			write(t, filepath.Join(b, "r/AGENTS.local.md"), "LOCAL")
		}, want: []string{"set AGENTS.local.md"}},
		{name: "a file added under a tombstoned scope is set", offline: func(t *testing.T, b string) {
			write(t, filepath.Join(b, "r/gone/AGENTS.md"), "BACK")
		}, want: []string{"set gone/AGENTS.md"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base, cfg := workspace(t, start)
			build(t, base, tree{"r/gone/AGENTS.md": "GONE"})
			cwd := filepath.Join(base, "r/s")
			live := NewTracker(cfg, cwd)
			var log []Meta
			b, err := live.Baseline(bg)
			if err != nil {
				t.Fatal(err)
			}
			log = append(log, b.Meta)
			for _, step := range []func(){
				func() {}, // reach n/
				func() { os.Remove(filepath.Join(base, "r/gone/AGENTS.md")) },
			} {
				step()
				b, err := live.Reconcile(bg, []string{filepath.Join(base, "r/n/f"), filepath.Join(base, "r/gone/x")})
				if err != nil {
					t.Fatal(err)
				}
				if b != nil {
					log = append(log, b.Meta)
				}
			}
			if len(log) != 3 {
				t.Fatalf("setup produced %d events, want baseline + set + remove", len(log))
			}
			tc.offline(t, base)

			tr := NewTracker(cfg, cwd)
			if err := tr.Restore(roundTrip(t, log...)); err != nil {
				t.Fatal(err)
			}
			if !tr.HasBaseline() {
				t.Fatal("restored tracker has no baseline")
			}
			got, err := tr.Reconcile(bg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !equal(paths(got), tc.want) {
				t.Fatalf("after resume: %q, want %q", paths(got), tc.want)
			}
			if got != nil {
				checkFrame(t, got.Text)
				if strings.Contains(got.Text, "Instructions from:") {
					t.Errorf("resume repeated baseline sections:\n%s", got.Text)
				}
			}
			again, err := tr.Reconcile(bg, nil)
			if err != nil || again != nil {
				t.Fatalf("second reconcile = %v, %v; want nothing", paths(again), err)
			}
		})
	}
}

func TestRestoreEdgeCases(t *testing.T) {
	base, cfg := workspace(t, tree{"r/.git": "dir:", "r/AGENTS.md": "ROOT"})
	cwd := filepath.Join(base, "r")
	first, err := NewTracker(cfg, cwd).Baseline(bg)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("without a visible baseline the next Baseline is complete", func(t *testing.T) {
		tr := NewTracker(cfg, cwd)
		if err := tr.Restore(nil); err != nil || tr.HasBaseline() {
			t.Fatalf("Restore(nil) = %v, HasBaseline %v", err, tr.HasBaseline())
		}
		b, err := tr.Baseline(bg)
		if err != nil || !equal(paths(b), []string{"set AGENTS.md"}) || !b.Meta.Baseline {
			t.Fatalf("baseline = %v, %v", paths(b), err)
		}
	})
	t.Run("a visible dynamic scope outlives a lost baseline", func(t *testing.T) {
		write(t, filepath.Join(cwd, "n/AGENTS.md"), "NESTED")
		live := NewTracker(cfg, cwd)
		live.Baseline(bg)
		dyn, err := live.Reconcile(bg, []string{filepath.Join(cwd, "n/f")})
		if err != nil || !equal(paths(dyn), []string{"set n/AGENTS.md"}) {
			t.Fatalf("dynamic = %v, %v", paths(dyn), err)
		}
		tr := NewTracker(cfg, cwd)
		if err := tr.Restore(roundTrip(t, dyn.Meta)); err != nil || tr.HasBaseline() {
			t.Fatalf("restore: %v, baseline %v", err, tr.HasBaseline())
		}
		b, err := tr.Baseline(bg)
		if err != nil || !equal(paths(b), []string{"set AGENTS.md"}) {
			t.Fatalf("baseline = %v, %v", paths(b), err)
		}
		if again, err := tr.Reconcile(bg, []string{filepath.Join(cwd, "n/f")}); again != nil || err != nil {
			t.Fatalf("still-visible dynamic scope re-sent: %v, %v", paths(again), err)
		}
	})
	t.Run("Reset makes the next Baseline complete again", func(t *testing.T) {
		tr := NewTracker(cfg, cwd)
		if err := tr.Restore([]Meta{first.Meta}); err != nil {
			t.Fatal(err)
		}
		tr.Reset()
		if tr.HasBaseline() || len(tr.Loaded()) != 0 {
			t.Fatal("Reset kept state")
		}
		b, err := tr.Baseline(bg)
		if err != nil || b == nil || b.Text != first.Text {
			t.Fatalf("fresh baseline differs from the first:\n%v", b)
		}
	})
	t.Run("another version and unplaceable changes are skipped and reported", func(t *testing.T) {
		future := first.Meta
		future.Version = 99
		bad := Meta{Version: MetaVersion, Changes: []Change{
			{Action: ActionSet, Scope: "project:.", Path: "X.md", File: "relative/X.md"},
			{Action: "rename", Scope: "project:.", Path: "AGENTS.md", File: filepath.Join(cwd, "AGENTS.md")},
			{Action: ActionSet, Scope: "mystery", Path: "AGENTS.md", File: filepath.Join(cwd, "AGENTS.md")},
		}}
		tr := NewTracker(cfg, cwd)
		err := tr.Restore([]Meta{future, bad})
		if err == nil || !strings.Contains(err.Error(), "version 99") || !strings.Contains(err.Error(), "rename") || !strings.Contains(err.Error(), "mystery") || !strings.Contains(err.Error(), "absolute") {
			t.Fatalf("error = %v", err)
		}
		if tr.HasBaseline() || len(tr.Loaded()) != 0 {
			t.Fatalf("skipped metadata left state: %v", tr.Loaded())
		}
	})
	t.Run("a later baseline supersedes earlier events", func(t *testing.T) {
		stale := Meta{Version: MetaVersion, Changes: []Change{{Action: ActionSet, Scope: "project:old", Path: "old/AGENTS.md", File: filepath.Join(cwd, "old/AGENTS.md"), Digest: "00"}}}
		tr := NewTracker(cfg, cwd)
		if err := tr.Restore(roundTrip(t, stale, first.Meta)); err != nil {
			t.Fatal(err)
		}
		if l := tr.Loaded(); len(l) != 1 || l[0].Path != "AGENTS.md" {
			t.Fatalf("loaded = %+v", l)
		}
	})
	t.Run("restored state is digest-only: a changed file with the same path is replaced", func(t *testing.T) {
		m := roundTrip(t, first.Meta)
		m[0].Changes[0].Digest = "0000000000000000000000000000000000000000"
		tr := NewTracker(cfg, cwd)
		if err := tr.Restore(m); err != nil {
			t.Fatal(err)
		}
		b, err := tr.Reconcile(bg, nil)
		if err != nil || !equal(paths(b), []string{"replace AGENTS.md"}) {
			t.Fatalf("got %v, %v", paths(b), err)
		}
	})
}
