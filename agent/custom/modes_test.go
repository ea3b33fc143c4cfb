package custom

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const defs = "testdata/defs"

func slugs(ms []Mode) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Slug)
	}
	return out
}

// TestBuiltinModes pins the four built-ins: their ids and order are a
// contract, and their tool groups must keep what ask and the others offered
// before they became files.
func TestBuiltinModes(t *testing.T) {
	ms := BuiltinModes()
	if got := strings.Join(slugs(ms), " "); got != "ask code auto-edit full-auto" {
		t.Fatalf("built-in modes = %s", got)
	}
	all := []string{"read", "plan", "edit", "execute", "mcp", "future"}
	for _, m := range ms {
		if m.Name == "" || m.Description == "" || m.Instructions != "" {
			t.Errorf("%s: name %q description %q instructions %q", m.Slug, m.Name, m.Description, m.Instructions)
		}
		for _, g := range all {
			want := m.Slug != "ask" || g == "read" || g == "plan"
			if m.Offers(g) != want {
				t.Errorf("%s offers %s = %v, want %v", m.Slug, g, !want, want)
			}
		}
	}
}

// TestLoadModes loads the fixture folders: project before user, a user
// file replacing a built-in in place, custom modes after the built-ins by
// id, broken files reported and skipped.
func TestLoadModes(t *testing.T) {
	ms, errs := LoadModes(filepath.Join(defs, "project/.tandem/modes"), filepath.Join(defs, "tandemhome/modes"), filepath.Join(defs, "missing"))
	if got := strings.Join(slugs(ms), " "); got != "ask code auto-edit full-auto docs review" {
		t.Errorf("modes = %s", got)
	}
	code := ms[1]
	if code.Name != "My code" || code.Instructions != "Prefer small commits and say which tests you ran." || code.Groups != nil {
		t.Errorf("code was not replaced in place by the user's file: %+v", code)
	}
	review := ms[5]
	if review.Name != "Review" || !slices.Equal(review.Groups, []string{"read", "plan"}) || !strings.HasPrefix(review.Instructions, "You are reviewing code") {
		t.Errorf("review (the project's, not the user's) = %+v", review)
	}
	if review.Offers("edit") || !review.Offers("read") {
		t.Errorf("review offers edit or not read")
	}
	if docs := ms[4]; docs.Model != "doc-writer-model" || !docs.Offers("edit") || docs.Offers("execute") {
		t.Errorf("docs = %+v", docs)
	}
	var msgs []string
	for _, err := range errs {
		msgs = append(msgs, err.Error())
	}
	joined := strings.Join(msgs, "\n")
	if len(errs) != 2 || !strings.Contains(joined, "Bad_Name.md") || !strings.Contains(joined, `"browse" is not a tool group`) {
		t.Errorf("problems = %s", joined)
	}
}

func TestParseModeErrors(t *testing.T) {
	for name, data := range map[string]string{
		"unterminated": "---\nname: x\n",
		"bad yaml":     "---\nname: [x\n---\n",
		"bad tools":    "---\ntools: {a: b}\n---\n",
	} {
		if _, err := ParseMode("x", "x.md", []byte(data)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
	// No header at all: a mode of every group whose body is the role.
	m, err := ParseMode("plain", "plain.md", []byte("Just instructions.\n"))
	if err != nil || m.Name != "plain" || m.Groups != nil || m.Instructions != "Just instructions." {
		t.Errorf("plain = %+v, %v", m, err)
	}
	// An explicit empty list offers nothing.
	m, err = ParseMode("none", "none.md", []byte("---\ntools: []\n---\n"))
	if err != nil || m.Groups == nil || m.Offers("read") {
		t.Errorf("none = %+v, %v", m, err)
	}
}

// TestDefinitionLinks refuses a link leading out of its folder (a
// repository must not pull ~/.ssh into a prompt) and a file over the cap.
func TestDefinitionLinks(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret.md")
	if err := os.WriteFile(secret, []byte("---\nname: s\n---\nsecret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "leak.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "huge.md"), make([]byte, maxDefBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "inside.md"), []byte("---\ndescription: d\n---\nok"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "inside.md"), filepath.Join(dir, "alias.md")); err != nil {
		t.Fatal(err)
	}
	ms, errs := LoadModes(dir)
	if got := strings.Join(slugs(ms[4:]), " "); got != "alias inside" {
		t.Errorf("custom modes = %q", got)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error()+errs[1].Error(), "links outside") || !strings.Contains(errs[0].Error()+errs[1].Error(), "larger than") {
		t.Errorf("problems = %v", errs)
	}
}
