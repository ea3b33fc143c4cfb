//go:build unix

package instructions

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestBudget(t *testing.T) {
	files := tree{
		"home/AGENTS.md": "GLOBAL " + strings.Repeat("g", 93),
		"r/.git":         "dir:",
		"r/AGENTS.md":    "ROOT " + strings.Repeat("r", 95),
		"r/s/AGENTS.md":  "SPECIFIC " + strings.Repeat("é", 2000), // 4009 bytes
	}
	base, cfg := workspace(t, files)
	cwd := filepath.Join(base, "r/s")
	full, err := NewTracker(cfg, cwd).Baseline(bg)
	if err != nil {
		t.Fatal(err)
	}
	L := len(full.Text)

	cases := []struct {
		name      string
		budget    int
		want      []string // changes carried
		omitted   []string
		truncated bool
		notice    []string
		nilBatch  bool
	}{
		{name: "exactly at budget fits everything, no notice", budget: L,
			want: []string{"set ~/.tandem/AGENTS.md", "set AGENTS.md", "set s/AGENTS.md"}},
		{name: "one byte over drops the broadest file first", budget: L - 1,
			want: []string{"set AGENTS.md", "set s/AGENTS.md"}, omitted: []string{"~/.tandem/AGENTS.md"},
			notice: []string{"Workspace instruction budget of " + fmt.Sprint(L-1) + " bytes reached: omitted ~/.tandem/AGENTS.md (100 bytes)."}},
		{name: "broader files are omitted before the most specific is truncated", budget: 2000,
			want: []string{"set s/AGENTS.md"}, omitted: []string{"~/.tandem/AGENTS.md", "AGENTS.md"}, truncated: true,
			notice: []string{"omitted ~/.tandem/AGENTS.md (100 bytes); omitted AGENTS.md (100 bytes); truncated s/AGENTS.md to its first ", " of 4009 bytes."}},
		{name: "too small for even a notice sends nothing", budget: 40, nilBatch: true},
		{name: "zero disables", budget: 0, nilBatch: true},
		{name: "negative disables", budget: -1, nilBatch: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := cfg
			c.MaxBytes = tc.budget
			tr := NewTracker(c, cwd)
			b, err := tr.Baseline(bg)
			if err != nil {
				t.Fatal(err)
			}
			if tc.nilBatch {
				if b != nil {
					t.Fatalf("got a batch of %d bytes:\n%s", len(b.Text), b.Text)
				}
				if r, err := tr.Reconcile(bg, []string{cwd}); r != nil || err != nil {
					t.Fatalf("Reconcile = %v, %v", paths(r), err)
				}
				return
			}
			if len(b.Text) > tc.budget {
				t.Fatalf("%d bytes exceed the budget of %d", len(b.Text), tc.budget)
			}
			checkFrame(t, b.Text)
			if !utf8.ValidString(b.Text) {
				t.Fatal("text is not valid UTF-8")
			}
			if !equal(paths(b), tc.want) {
				t.Fatalf("changes = %q, want %q", paths(b), tc.want)
			}
			var om []string
			for _, o := range b.Meta.Omitted {
				om = append(om, o.Path)
			}
			if !equal(om, tc.omitted) {
				t.Errorf("omitted = %q, want %q", om, tc.omitted)
			}
			for _, n := range tc.notice {
				if !strings.Contains(b.Text, n) {
					t.Errorf("text lacks notice %q:\n%s", n, b.Text)
				}
			}
			if len(tc.notice) == 0 && strings.Contains(b.Text, "budget") {
				t.Errorf("unexpected budget notice:\n%s", b.Text)
			}
			last := b.Meta.Changes[len(b.Meta.Changes)-1]
			if last.Truncated != tc.truncated {
				t.Fatalf("truncated = %v, want %v", last.Truncated, tc.truncated)
			}
			if tc.truncated {
				if !strings.Contains(b.Text, fmt.Sprintf("to its first %d of", last.Shown)) || last.Shown <= 0 || last.Shown >= 4009 {
					t.Errorf("shown = %d does not match the notice", last.Shown)
				}
				if !strings.Contains(b.Text, "SPECIFIC "+strings.Repeat("é", (last.Shown-9)/2)) {
					t.Error("truncated content is not a prefix of the file")
				}
				if l := tr.Loaded(); len(l) != 1 || !l[0].Truncated {
					t.Errorf("loaded = %+v", l)
				}
			}
			if b.Meta.Bytes != len(b.Text) || b.Meta.Budget != tc.budget {
				t.Errorf("meta bytes/budget = %d/%d", b.Meta.Bytes, b.Meta.Budget)
			}
		})
	}
}

// TestBudgetDynamic: the budget applies per reconcile batch, and a scope
// the budget omitted is tried again on a later touch.
func TestBudgetDynamic(t *testing.T) {
	base, cfg := workspace(t, tree{"r/.git": "dir:", "r/a/AGENTS.md": strings.Repeat("a", 300), "r/a/b/AGENTS.md": strings.Repeat("b", 300)})
	cfg.MaxBytes = 800
	tr := NewTracker(cfg, filepath.Join(base, "r"))
	if b, err := tr.Baseline(bg); b != nil || err != nil {
		t.Fatalf("baseline = %v, %v", paths(b), err)
	}
	touch := []string{filepath.Join(base, "r/a/b/f.go")}
	b, err := tr.Reconcile(bg, touch)
	if err != nil {
		t.Fatal(err)
	}
	if !equal(paths(b), []string{"set a/b/AGENTS.md"}) || len(b.Text) > 800 || !strings.Contains(b.Text, "omitted a/AGENTS.md (300 bytes)") {
		t.Fatalf("first batch = %q (%d bytes):\n%s", paths(b), len(b.Text), b.Text)
	}
	b, err = tr.Reconcile(bg, touch)
	if err != nil || !equal(paths(b), []string{"set a/AGENTS.md"}) {
		t.Fatalf("second batch = %q, %v", paths(b), err)
	}
	if b, _ := tr.Reconcile(bg, touch); b != nil {
		t.Fatalf("third batch = %q", paths(b))
	}
}
