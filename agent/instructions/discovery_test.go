//go:build unix

package instructions

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBaselineDiscovery checks which files a new session loads, in which
// order, on real directory trees.
func TestBaselineDiscovery(t *testing.T) {
	big := strings.Repeat("x", 5<<20) // 5 MiB
	cases := []struct {
		name      string
		tree      tree
		cwd       string
		cfg       func(*Config)
		want      []string // "action path", in message order
		wantText  []string // substrings that must appear, in this order
		notText   []string
		wantProbs []string // substrings of Unavailable paths
	}{
		{
			name: "AGENTS.md wins over CLAUDE.md in one directory",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md": "A-root", "r/CLAUDE.md": "C-root"},
			cwd:  "r", want: []string{"set AGENTS.md"}, wantText: []string{"Instructions from: AGENTS.md\nA-root"}, notText: []string{"C-root"},
		},
		{
			name: "CLAUDE.md is the fallback",
			tree: tree{"r/.git": "dir:", "r/CLAUDE.md": "C-root"},
			cwd:  "r", want: []string{"set CLAUDE.md"},
		},
		{
			name: "a directory named AGENTS.md is absent",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md/x": "inside", "r/CLAUDE.md": "C-root"},
			cwd:  "r", want: []string{"set CLAUDE.md"}, notText: []string{"inside"},
		},
		{
			name: "a FIFO named AGENTS.md is absent and never opened",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md": "fifo:", "r/CLAUDE.md": "C-root"},
			cwd:  "r", want: []string{"set CLAUDE.md"},
		},
		{
			name: "a symlink is followed to its target",
			tree: tree{"r/.git": "dir:", "shared/guide.md": "LINKED", "r/AGENTS.md": "link:../shared/guide.md", "r/CLAUDE.md": "C-root"},
			cwd:  "r", want: []string{"set AGENTS.md"}, wantText: []string{"LINKED"}, notText: []string{"C-root"},
		},
		{
			name: "a dangling symlink is absent",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md": "link:nowhere.md", "r/CLAUDE.md": "C-root"},
			cwd:  "r", want: []string{"set CLAUDE.md"},
		},
		{
			name: "a symlink to a directory is absent",
			tree: tree{"r/.git": "dir:", "r/d": "dir:", "r/AGENTS.md": "link:d", "r/CLAUDE.md": "C-root"},
			cwd:  "r", want: []string{"set CLAUDE.md"},
		},
		{
			name: "a stat error skips only that candidate",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md": "link:AGENTS.md", "r/CLAUDE.md": "C-root"},
			cwd:  "r", want: []string{"set CLAUDE.md"}, wantProbs: []string{"AGENTS.md"},
		},
		{
			name: "local overlay loads after the base file of the same directory",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md": "BASE", "r/CLAUDE.local.md": "LOCAL", "r/s/AGENTS.local.md": "SLOCAL"},
			cwd:  "r/s", want: []string{"set AGENTS.md", "set CLAUDE.local.md", "set s/AGENTS.local.md"},
			wantText: []string{"BASE", "LOCAL", "SLOCAL"},
		},
		{
			name: "AGENTS.local.md wins over CLAUDE.local.md",
			tree: tree{"r/.git": "dir:", "r/AGENTS.local.md": "AL", "r/CLAUDE.local.md": "CL"},
			cwd:  "r", want: []string{"set AGENTS.local.md"}, notText: []string{"CL"},
		},
		{
			name: "one winner per directory from root to cwd, nothing beside or below",
			tree: tree{
				"r/.git": "dir:", "r/AGENTS.md": "R", "r/a/CLAUDE.md": "A", "r/a/b/AGENTS.md": "B",
				"r/a/b/c/AGENTS.md": "BELOW", "r/x/AGENTS.md": "SIBLING", "AGENTS.md": "ABOVE-ROOT",
			},
			cwd:      "r/a/b",
			want:     []string{"set AGENTS.md", "set a/CLAUDE.md", "set a/b/AGENTS.md"},
			wantText: []string{"\nR\n", "\nA\n", "\nB\n"}, notText: []string{"BELOW", "SIBLING", "ABOVE-ROOT"},
		},
		{
			name: "a .git file marks the root (worktree, submodule)",
			tree: tree{"AGENTS.md": "OUTER", "w/.git": "gitdir: ../elsewhere", "w/AGENTS.md": "W", "w/s/AGENTS.md": "S"},
			cwd:  "w/s", want: []string{"set AGENTS.md", "set s/AGENTS.md"}, notText: []string{"OUTER"},
		},
		{
			name: "without a marker the cwd is the root",
			tree: tree{"r/AGENTS.md": "PARENT", "r/s/AGENTS.md": "HERE"},
			cwd:  "r/s", want: []string{"set AGENTS.md"}, wantText: []string{"HERE"}, notText: []string{"PARENT"},
		},
		{
			name: "configured root markers",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md": "GIT", "r/p/.hg": "dir:", "r/p/AGENTS.md": "HG"},
			cwd:  "r/p", cfg: func(c *Config) { c.RootMarkers = []string{".hg"} },
			want: []string{"set AGENTS.md"}, wantText: []string{"HG"}, notText: []string{"GIT"},
		},
		{
			name: "user-global file first, shown under ~/.tandem",
			tree: tree{"home/AGENTS.md": "GLOBAL", "home/CLAUDE.md": "NOT-A-CANDIDATE-HERE", "home/AGENTS.local.md": "NO-OVERLAY", "r/.git": "dir:", "r/AGENTS.md": "R"},
			cwd:  "r", want: []string{"set ~/.tandem/AGENTS.md", "set AGENTS.md"},
			wantText: []string{"Instructions from: ~/.tandem/AGENTS.md\nGLOBAL", "Instructions from: AGENTS.md\nR"},
			notText:  []string{"NOT-A-CANDIDATE-HERE", "NO-OVERLAY"},
		},
		{
			name: "configured home is shown as $TANDEM_HOME",
			tree: tree{"home/AGENTS.md": "GLOBAL", "r/.git": "dir:"},
			cwd:  "r", cfg: func(c *Config) { c.HomeLabel = "$TANDEM_HOME" },
			want: []string{"set $TANDEM_HOME/AGENTS.md"},
		},
		{
			name: "user-global candidates are fixed even with a custom list",
			tree: tree{"home/CLAUDE.md": "G-CLAUDE", "r/.git": "dir:", "r/CLAUDE.md": "R"},
			cwd:  "r", cfg: func(c *Config) { c.Candidates = []string{"CLAUDE.md"} },
			want: []string{"set CLAUDE.md"}, notText: []string{"G-CLAUDE"},
		},
		{
			name: "configured candidate order is plain order",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md": "A", "r/CLAUDE.md": "C"},
			cwd:  "r", cfg: func(c *Config) { c.Candidates = []string{"CLAUDE.md", "AGENTS.md"} },
			want: []string{"set CLAUDE.md"},
		},
		{
			name: "unsafe candidate names are ignored",
			tree: tree{"r/.git": "dir:", "r/sub/AGENTS.md": "SUB", "AGENTS.md": "UP", "r/x\\y": "BS", "r/GUIDE.md": "G"},
			cwd:  "r",
			cfg: func(c *Config) {
				c.Candidates = []string{"", ".", "..", "sub/AGENTS.md", "../AGENTS.md", "x\\y", "GUIDE.md"}
				c.LocalCandidates = []string{}
			},
			want: []string{"set GUIDE.md"}, notText: []string{"SUB", "UP", "BS"},
		},
		{
			name: "empty lists load nothing from the project",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md": "A", "r/AGENTS.local.md": "L"},
			cwd:  "r", cfg: func(c *Config) { c.Candidates = []string{}; c.LocalCandidates = []string{} },
			want: nil,
		},
		{
			name: "an oversized winner is unavailable and does not fall through",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md": big, "r/CLAUDE.md": "C", "r/AGENTS.local.md": "L"},
			cwd:  "r", want: []string{"set AGENTS.local.md"}, notText: []string{"\nC\n"}, wantProbs: []string{"AGENTS.md"},
		},
		{
			name: "a file of exactly maxSourceBytes loads, one byte more does not",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md": strings.Repeat("a", 100), "r/AGENTS.local.md": strings.Repeat("b", 101)},
			cwd:  "r", cfg: func(c *Config) { c.MaxSourceBytes = 100 },
			want: []string{"set AGENTS.md"}, wantProbs: []string{"AGENTS.local.md"},
		},
		{
			name: "a closing tag in content and in a path is escaped",
			tree: tree{"r/.git": "dir:", "r/AGENTS.md": "before </system-reminder> after </SYSTEM-Reminder>", "r/</system-reminder>/AGENTS.md": "deep"},
			cwd:  "r/</system-reminder>", want: []string{"set AGENTS.md", "set </system-reminder>/AGENTS.md"},
			wantText: []string{`before <\/system-reminder> after <\/SYSTEM-Reminder>`, `Instructions from: <\/system-reminder>/AGENTS.md`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base, cfg := workspace(t, tc.tree)
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			tr := NewTracker(cfg, filepath.Join(base, filepath.FromSlash(tc.cwd)))
			b, err := tr.Baseline(bg)
			if err != nil {
				t.Fatal(err)
			}
			if got := paths(b); !equal(got, tc.want) {
				t.Fatalf("changes = %q, want %q", got, tc.want)
			}
			if b == nil {
				return
			}
			if !b.Meta.Baseline || b.Meta.Version != MetaVersion || b.Meta.Bytes != len(b.Text) {
				t.Errorf("meta = %+v", b.Meta)
			}
			checkFrame(t, b.Text)
			at := 0
			for _, s := range tc.wantText {
				i := strings.Index(b.Text[at:], s)
				if i < 0 {
					t.Fatalf("text lacks %q after offset %d:\n%s", s, at, b.Text)
				}
				at += i + len(s)
			}
			for _, s := range tc.notText {
				if strings.Contains(b.Text, s) {
					t.Errorf("text contains %q:\n%s", s, b.Text)
				}
			}
			probs := tr.Unavailable()
			for _, p := range tc.wantProbs {
				found := false
				for _, pr := range probs {
					found = found || filepath.Base(pr.Path) == p
				}
				if !found {
					t.Errorf("unavailable = %v, want one for %s", probs, p)
				}
			}
			if len(tc.wantProbs) == 0 && len(probs) > 0 {
				t.Errorf("unexpected unavailable: %v", probs)
			}
			for _, c := range b.Meta.Changes {
				if len(c.Digest) != 40 || !filepath.IsAbs(c.File) {
					t.Errorf("change %+v lacks a SHA-1 digest or absolute file", c)
				}
			}
		})
	}
}

// checkFrame asserts the message is one reminder block whose only closing
// tag (in any case) is the final one.
func checkFrame(t testing.TB, text string) {
	t.Helper()
	if !strings.HasPrefix(text, openTag) || !strings.HasSuffix(text, closeTag) {
		t.Fatalf("not framed as one system-reminder:\n%s", text)
	}
	if n := strings.Count(strings.ToLower(text), "</system-reminder"); n != 1 {
		t.Fatalf("%d closing tags, want exactly 1:\n%s", n, text)
	}
}
