package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/custom"
)

func TestSkillTool(t *testing.T) {
	f := newFixture(t, map[string]string{
		".agents/skills/pdf/SKILL.md":        "---\ndescription: Fill PDF forms.\n---\nRun scripts/fill.py.",
		".agents/skills/pdf/scripts/fill.py": "print('fill')",
		".agents/skills/pdf/reference.md":    "FIELD NAMES",
		"secret.txt":                         "SECRET",
	})
	// A user-level skill lives outside the workspace and is read from disk.
	user := t.TempDir()
	writeTree(t, user, map[string]string{"skills/notes/SKILL.md": "---\ndescription: Take notes.\n---\nNOTES BODY"})
	if err := os.Symlink(f.abs("secret.txt"), filepath.Join(user, "skills", "notes", "leak.txt")); err != nil {
		t.Fatal(err)
	}
	set := custom.Load(custom.Sources(custom.Places{Root: f.root, TandemHome: user}), func(string) bool { return false })
	tool := NewSkill(func() *custom.Set { return set })
	if tool.Info().Group != GroupRead {
		t.Errorf("group %s", tool.Info().Group)
	}

	res := f.run(t, tool, map[string]string{"name": "pdf"})
	for _, want := range []string{"Run scripts/fill.py.", "Files: reference.md, scripts/fill.py", f.abs(".agents/skills/pdf")} {
		if res.IsError || !strings.Contains(res.Output, want) {
			t.Errorf("loading pdf: %q lacks %q", res.Output, want)
		}
	}
	if res := f.run(t, tool, map[string]string{"name": "pdf", "file": "reference.md"}); res.IsError || res.Output != "FIELD NAMES" {
		t.Errorf("reading a skill's file: %+v", res)
	}
	if res := f.run(t, tool, map[string]string{"name": "notes"}); res.IsError || !strings.Contains(res.Output, "NOTES BODY") {
		t.Errorf("a user-level skill: %+v", res)
	}
	for _, bad := range []map[string]string{
		{"name": "pdf", "file": "../../../secret.txt"},
		{"name": "pdf", "file": f.abs("secret.txt")},
		{"name": "notes", "file": "leak.txt"},
		{"name": "pdf", "file": "scripts"},
	} {
		if res := f.run(t, tool, bad); !res.IsError || strings.Contains(res.Output, "SECRET") {
			t.Errorf("%v: %+v, want a refusal", bad, res)
		}
	}
	if res := f.run(t, tool, map[string]string{"name": "nope"}); !res.IsError || !strings.Contains(res.Output, "notes, pdf") {
		t.Errorf("an unknown skill: %+v", res)
	}
}
