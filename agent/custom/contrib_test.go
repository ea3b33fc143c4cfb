package custom

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Contributions come back namespaced; a rule's plain mode name means the
// contributor's own mode when it has one, else a session mode as named;
// a file linked out of the contributor's folder, and broken files, are
// reported and skipped.
func TestLoadContributions(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	writeTree(t, dir, map[string]string{
		"modes/review.md":   "---\ndescription: Reviews\ntools: [read]\n---\nROLE\n",
		"modes/plain.md":    "---\nname: Plain One\n---\n",
		"modes/broken.md":   "---\ntools: [fly]\n---\n",
		"agents/checker.md": "---\ndescription: Checks\n---\nCHECKER\n",
		"agents/bad.md":     "---\ndescription: no body\n---\n",
		"rules/own.md":      "---\nmodes: [review, code]\n---\nOWN-RULE\n",
		"rules/all.md":      "ALL-RULE\n",
		"rules/empty.md":    "---\nmodes: [code]\n---\n",
	})
	writeTree(t, outside, map[string]string{"secret.md": "SECRET\n"})
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "rules", "link.md")); err != nil {
		t.Fatal(err)
	}
	c := Contribution{Namespace: "rev", Dir: dir,
		Modes: []NamedFile{{Name: "review", Path: filepath.Join(dir, "modes/review.md")}, {Name: "plain", Path: filepath.Join(dir, "modes/plain.md")},
			{Name: "broken", Path: filepath.Join(dir, "modes/broken.md")}, {Name: "review", Path: filepath.Join(dir, "modes/plain.md")}},
		AgentDirs: []string{filepath.Join(dir, "agents")},
		Rules: []RuleFile{{Path: filepath.Join(dir, "rules/own.md")}, {Path: filepath.Join(dir, "rules/all.md")},
			{Path: filepath.Join(dir, "rules/all.md"), Modes: []string{"ask"}},
			{Path: filepath.Join(dir, "rules/empty.md")}, {Path: filepath.Join(dir, "rules/link.md")}},
	}
	got, errs := LoadContributions([]Contribution{c, {Namespace: "Bad Name"}}, nil)
	var slugs []string
	for _, m := range got.Modes {
		slugs = append(slugs, m.Slug+"="+m.Name)
	}
	if strings.Join(slugs, " ") != "rev:review=rev:review rev:plain=Plain One (rev)" {
		t.Errorf("modes = %v", slugs)
	}
	if got.Modes[0].Instructions != "ROLE" || !slices.Equal(got.Modes[0].Groups, []string{"read"}) {
		t.Errorf("review = %+v", got.Modes[0])
	}
	if len(got.Agents) != 1 || got.Agents[0].Name != "rev:checker" || got.Agents[0].Prompt != "CHECKER" {
		t.Errorf("agents = %+v", got.Agents)
	}
	if len(got.Rules) != 3 {
		t.Fatalf("rules = %+v", got.Rules)
	}
	own, all, ask := got.Rules[0], got.Rules[1], got.Rules[2]
	if !slices.Equal(own.Modes, []string{"rev:review", "code"}) || !own.For("code") || own.For("ask") {
		t.Errorf("own = %+v", own)
	}
	if all.Modes != nil || !all.For("anything") || !ask.For("ask") || ask.For("code") {
		t.Errorf("all = %+v, ask = %+v", all, ask)
	}
	text := ""
	for _, e := range errs {
		text += e.Error() + "\n"
	}
	for _, want := range []string{"broken.md", "bad.md", "empty.md", "link.md: links outside", "Bad Name"} {
		if !strings.Contains(text, want) {
			t.Errorf("no problem reported for %s:\n%s", want, text)
		}
	}
	if strings.Contains(text, "SECRET") {
		t.Error("a linked file was read")
	}
}
