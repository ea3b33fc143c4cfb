//go:build unix

package instructions

import (
	"crypto/sha1"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// step is one action in a session's life: change files, then reconcile
// after a tool touched some paths, and say what the batch must carry.
type step struct {
	do      func(t *testing.T, base string)
	touch   []string // relative to base; nil means Reconcile(ctx, nil)
	want    []string // "action path"; nil means no batch
	text    []string // substrings the batch text must contain
	loaded  []string // Loaded() paths afterwards, when non-nil
	noTouch bool     // call Reconcile with an empty, non-nil slice
}

func TestReconcile(t *testing.T) {
	base0 := tree{"r/.git": "dir:", "r/AGENTS.md": "ROOT", "r/s/x.go": "package s"}
	cases := []struct {
		name  string
		tree  tree
		cwd   string
		steps []step
	}{
		{
			name: "a newly reached nested file is added once",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md": "ROOT", "r/s/t/CLAUDE.md": "NESTED", "r/s/t/u/f.go": "x"},
			cwd:  "r",
			steps: []step{
				{touch: []string{"r/s/t/u/f.go"}, want: []string{"set s/t/CLAUDE.md"}, text: []string{"Additional instructions from: s/t/CLAUDE.md\nNESTED"}},
				{touch: []string{"r/s/t/u/f.go"}, want: nil},
				{touch: []string{"r/s/t"}, want: nil, loaded: []string{"AGENTS.md", "s/t/CLAUDE.md"}},
			},
		},
		{
			name:  "list_code_definition_names on a directory reaches that directory",
			tree:  tree{"r/.git": "dir:", "r/pkg/AGENTS.md": "PKG"},
			cwd:   "r",
			steps: []step{{touch: []string{"r/pkg"}, want: []string{"set pkg/AGENTS.md"}}},
		},
		{
			name: "an edit replaces with the complete new content",
			tree: base0, cwd: "r",
			steps: []step{
				{do: func(t *testing.T, b string) { write(t, filepath.Join(b, "r/AGENTS.md"), "ROOT v2 is longer") },
					touch: []string{"r/AGENTS.md"}, want: []string{"replace AGENTS.md"},
					text: []string{"Updated instructions from: AGENTS.md\n", "ROOT v2 is longer"}},
				{touch: []string{"r/s/x.go"}, want: nil},
			},
		},
		{
			name: "a same-size edit within the racy window is still seen",
			tree: base0, cwd: "r",
			steps: []step{
				{do: func(t *testing.T, b string) { write(t, filepath.Join(b, "r/AGENTS.md"), "ROOF") },
					touch: []string{"r/s/x.go"}, want: []string{"replace AGENTS.md"}, text: []string{"ROOF"}},
			},
		},
		{
			name: "a touch on an unrelated path still re-checks every known scope",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md": "ROOT", "r/s/AGENTS.md": "S", "r/other/x": "x"},
			cwd:  "r/s",
			steps: []step{
				{do: func(t *testing.T, b string) { write(t, filepath.Join(b, "r/s/AGENTS.md"), "S2") },
					touch: []string{"r/other/x"}, want: []string{"replace s/AGENTS.md"}},
			},
		},
		{
			name: "precedence moving to another candidate names the old path",
			tree: tree{"r/.git": "dir:", "r/CLAUDE.md": "CLAUDE"}, cwd: "r",
			steps: []step{
				{do: func(t *testing.T, b string) { write(t, filepath.Join(b, "r/AGENTS.md"), "AGENTS") },
					touch: []string{"r/AGENTS.md"}, want: []string{"replace AGENTS.md"},
					text: []string{"Updated instructions from: AGENTS.md", "CLAUDE.md, whose instructions no longer apply", "AGENTS"}},
				{do: func(t *testing.T, b string) { os.Remove(filepath.Join(b, "r/AGENTS.md")) },
					touch: []string{"r/x"}, want: []string{"replace CLAUDE.md"}, text: []string{"AGENTS.md, whose", "CLAUDE"}},
			},
		},
		{
			name: "removal is a tombstone; reappearing is a new set",
			tree: base0, cwd: "r",
			steps: []step{
				{do: func(t *testing.T, b string) { os.Remove(filepath.Join(b, "r/AGENTS.md")) },
					touch: []string{"r/s/x.go"}, want: []string{"remove AGENTS.md"},
					text: []string{"Instructions removed: AGENTS.md\n", "no longer apply"}, loaded: []string{}},
				{touch: []string{"r/s/x.go"}, want: nil},
				{do: func(t *testing.T, b string) { write(t, filepath.Join(b, "r/AGENTS.md"), "BACK") },
					touch: []string{"r/s/x.go"}, want: []string{"set AGENTS.md"}, text: []string{"Additional instructions from: AGENTS.md\nBACK"}},
			},
		},
		{
			name: "a stat error on a loaded file is not a removal",
			tree: base0, cwd: "r",
			steps: []step{
				{do: func(t *testing.T, b string) {
					p := filepath.Join(b, "r/AGENTS.md")
					os.Remove(p)
					os.Symlink("AGENTS.md", p) // ELOOP, even for root
					write(t, filepath.Join(b, "r/CLAUDE.md"), "FALLBACK")
				}, touch: []string{"r/s/x.go"}, want: nil, loaded: []string{"AGENTS.md"}},
				{do: func(t *testing.T, b string) {
					p := filepath.Join(b, "r/AGENTS.md")
					os.Remove(p)
					write(t, p, "HEALED")
				}, touch: []string{"r/s/x.go"}, want: []string{"replace AGENTS.md"}, text: []string{"HEALED"}},
			},
		},
		{
			name: "an oversized edit leaves the loaded scope in place",
			tree: base0, cwd: "r",
			steps: []step{
				{do: func(t *testing.T, b string) { write(t, filepath.Join(b, "r/AGENTS.md"), strings.Repeat("z", 5<<20)) },
					touch: []string{"r/AGENTS.md"}, want: nil, loaded: []string{"AGENTS.md"}},
			},
		},
		{
			name:  "paths outside the root add nothing",
			tree:  tree{"r/.git": "dir:", "r/AGENTS.md": "ROOT", "elsewhere/AGENTS.md": "OUT", "elsewhere/f": "f"},
			cwd:   "r",
			steps: []step{{touch: []string{"elsewhere/f"}, want: nil}},
		},
		{
			name: "Reconcile(nil) catches a file added to the baseline chain",
			tree: base0, cwd: "r/s",
			steps: []step{
				{do: func(t *testing.T, b string) { write(t, filepath.Join(b, "r/s/AGENTS.local.md"), "LOCAL") },
					touch: nil, want: []string{"set s/AGENTS.local.md"}},
				{touch: nil, want: nil},
			},
		},
		{
			name: "an empty touch list only re-checks known scopes",
			tree: base0, cwd: "r/s",
			steps: []step{
				{do: func(t *testing.T, b string) { write(t, filepath.Join(b, "r/s/AGENTS.md"), "S") },
					noTouch: true, want: nil},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base, cfg := workspace(t, tc.tree)
			tr := NewTracker(cfg, filepath.Join(base, tc.cwd))
			if _, err := tr.Baseline(bg); err != nil {
				t.Fatal(err)
			}
			for i, st := range tc.steps {
				if st.do != nil {
					st.do(t, base)
				}
				var touched []string
				if st.noTouch {
					touched = []string{}
				}
				for _, p := range st.touch {
					touched = append(touched, filepath.Join(base, p))
				}
				b, err := tr.Reconcile(bg, touched)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if got := paths(b); !equal(got, st.want) {
					t.Fatalf("step %d: changes = %q, want %q\n%v", i, got, st.want, b)
				}
				if b != nil {
					checkFrame(t, b.Text)
					if b.Meta.Baseline {
						t.Errorf("step %d: dynamic batch flagged as baseline", i)
					}
					for _, s := range st.text {
						if !strings.Contains(b.Text, s) {
							t.Errorf("step %d: text lacks %q:\n%s", i, s, b.Text)
						}
					}
					checkDigests(t, b)
				}
				if st.loaded != nil {
					var got []string
					for _, s := range tr.Loaded() {
						got = append(got, s.Path)
					}
					if !equal(got, st.loaded) {
						t.Errorf("step %d: loaded = %q, want %q", i, got, st.loaded)
					}
				}
			}
		})
	}
}

// checkDigests verifies each set/replace digest against the file on disk.
func checkDigests(t testing.TB, b *Batch) {
	t.Helper()
	for _, c := range b.Meta.Changes {
		if c.Action == ActionRemove {
			if c.Digest != "" {
				t.Errorf("removal %s carries a digest", c.Path)
			}
			continue
		}
		data, err := os.ReadFile(c.File)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha1.Sum(data)
		if c.Digest != hex.EncodeToString(sum[:]) || c.Bytes != int64(len(data)) {
			t.Errorf("%s: digest %s bytes %d, file has %x and %d", c.Path, c.Digest, c.Bytes, sum, len(data))
		}
	}
}
