package custom

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Entries name their files one by one: a command under the entry's name
// with the entry's description, a skill by its folder or its SKILL.md;
// a link out of the contributor's folder is a problem; a file the
// namespace's folder source also holds is kept once, under the entry's
// name; and editing an entry's file changes the stamp.
func TestEntries(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	writeTree(t, dir, map[string]string{
		"p/sum.md":            "---\ndescription: file's\n---\nSUM $ARGUMENTS\n",
		"commands/audit.md":   "AUDIT\n",
		"s/one/SKILL.md":      "---\nname: other\ndescription: first skill\n---\nONE\n",
		"s/two/SKILL.md":      "---\ndescription: second skill\n---\nTWO\n",
		"skills/two/SKILL.md": "---\ndescription: the folder's copy\n---\nTWO\n",
	})
	writeTree(t, outside, map[string]string{"x.md": "SECRET\n", "sk/SKILL.md": "---\ndescription: x\n---\nX\n"})
	if err := os.Symlink(filepath.Join(outside, "x.md"), filepath.Join(dir, "leak.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "sk"), filepath.Join(dir, "s", "leak")); err != nil {
		t.Fatal(err)
	}
	at := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	srcs := []Source{
		{Dir: dir, Kind: KindCommands, Scope: ScopePlugin, Namespace: "pl", Entries: []Entry{
			{Name: "sum", Path: at("p/sum.md"), Description: "the manifest's"},
			{Name: "check", Path: at("commands/audit.md")},
			{Name: "leak", Path: at("leak.md")},
		}},
		{Dir: at("commands"), Kind: KindCommands, Scope: ScopePlugin, Namespace: "pl"},
		{Dir: dir, Kind: KindSkills, Scope: ScopePlugin, Namespace: "pl", Entries: []Entry{
			{Name: "one", Path: at("s/one")},
			{Name: "two", Path: at("s/two/SKILL.md")},
			{Name: "leak", Path: at("s/leak")},
		}},
		{Dir: at("skills"), Kind: KindSkills, Scope: ScopePlugin, Namespace: "pl"},
	}
	set := Load(srcs, func(string) bool { return false })
	var names []string
	for _, c := range set.Commands {
		names = append(names, c.Name)
	}
	for _, s := range set.Skills {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "pl:check pl:sum pl:one pl:two" {
		t.Errorf("names: %s", got)
	}
	if c, _ := set.Command("pl:sum"); c.Description != "the manifest's" || !strings.Contains(c.Body, "SUM $ARGUMENTS") {
		t.Errorf("sum: %+v", c)
	}
	if s, _ := set.Skill("pl:two"); s.Description != "second skill" || s.Dir != at("s/two") {
		t.Errorf("two: %+v", s)
	}
	if len(set.Problems) != 2 {
		t.Errorf("problems: %v", set.Problems)
	}
	for _, p := range set.Problems {
		if !strings.Contains(p.Error(), "links outside") {
			t.Errorf("problem: %v", p)
		}
	}
	if !set.Current(srcs) {
		t.Fatal("not current right after loading")
	}
	if err := os.WriteFile(at("p/sum.md"), []byte("changed, longer than before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if set.Current(srcs) {
		t.Error("an entry's edit left the stamp as it was")
	}
}

// A plugin's commands/ folder is untrusted like a project's: a link in it
// that leaves the folder is not followed.
func TestPluginFolderLinkOut(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	writeTree(t, outside, map[string]string{"x.md": "SECRET\n"})
	if err := os.Symlink(filepath.Join(outside, "x.md"), filepath.Join(dir, "x.md")); err != nil {
		t.Fatal(err)
	}
	cmds, problems := LoadCommands(Source{Dir: dir, Kind: KindCommands, Scope: ScopePlugin, Namespace: "pl"})
	if len(cmds) != 0 || len(problems) != 1 {
		t.Errorf("commands %v, problems %v", cmds, problems)
	}
}
