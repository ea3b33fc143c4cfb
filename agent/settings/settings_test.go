package settings

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/policy"
	"github.com/tandemhq/tandem/internal/testenv"
)

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func texts(s Set, active bool) []string {
	var out []string
	for _, e := range s.Entries {
		if e.Active == active {
			out = append(out, e.List.String()+" "+e.Text+" @"+e.Source)
		}
	}
	return out
}

func TestLoadThreeFiles(t *testing.T) {
	home, root, user := testenv.TempDir(t), testenv.TempDir(t), testenv.TempDir(t)
	write(t, UserFile(home), `{"model": "m", "permissions": {"deny": ["Bash(rm:*)"], "allow": ["Bash(ls:*)"]}}`)
	write(t, ProjectFile(root), `{"permissions": {"ask": ["Bash(git push:*)"], "allow": ["Edit(src/**)"], "defaultMode": "x"}}`)
	write(t, LocalFile(root), `{"permissions": {"allow": ["run_command(go test:*)", "run_command(a && b:*)"]}}`)
	s := Load(context.Background(), Options{Home: home, UserHome: user, Root: root})
	active := []string{
		"deny Bash(rm:*) @" + UserFile(home), "allow Bash(ls:*) @" + UserFile(home),
		"ask Bash(git push:*) @.tandem/settings.json", "allow run_command(go test:*) @.tandem/settings.local.json",
	}
	if got := texts(s, true); !slices.Equal(got, active) {
		t.Errorf("active %q\nwant   %q", got, active)
	}
	if got := texts(s, false); !slices.Equal(got, []string{"allow Edit(src/**) @.tandem/settings.json"}) {
		t.Errorf("inactive %q", got)
	}
	if len(s.Problems) != 1 || !strings.Contains(s.Problems[0], "a && b") {
		t.Errorf("problems %q, want the compound rule", s.Problems)
	}
	if !slices.Equal(s.Pending, []string{"Edit(src/**)"}) || s.Digest == "" {
		t.Errorf("pending %q digest %q", s.Pending, s.Digest)
	}
	rs := s.Rules()
	if len(rs.Allow) != 2 || rs.Allow[1].Source != ".tandem/settings.local.json" {
		t.Errorf("rules in force %+v", rs)
	}
	digest := s.Digest
	s.Accept("other")
	if len(s.Pending) == 0 {
		t.Error("a stale digest was accepted")
	}
	s.Accept(digest)
	if len(s.Pending) != 0 || len(s.Rules().Allow) != 4 {
		t.Errorf("after accepting: pending %q, allow %+v", s.Pending, s.Rules().Allow)
	}

	// The consent is remembered for exactly this list.
	c := Consents{Home: home}
	if c.Has(root, digest) {
		t.Fatal("consent before any was given")
	}
	if err := c.Add(root, digest); err != nil {
		t.Fatal(err)
	}
	s = Load(context.Background(), Options{Home: home, Root: root, Consented: func(d string) bool { return c.Has(root, d) }})
	if len(s.Pending) != 0 {
		t.Errorf("remembered consent not applied: %q", s.Pending)
	}
	write(t, ProjectFile(root), `{"permissions": {"allow": ["Edit(src/**)", "Bash(curl:*)"]}}`)
	if !s.Stale() {
		t.Error("a changed file is not stale")
	}
	s = Load(context.Background(), Options{Home: home, Root: root, Consented: func(d string) bool { return c.Has(root, d) }})
	if len(s.Pending) != 2 {
		t.Errorf("a changed list kept the old consent: pending %q", s.Pending)
	}
	if s.Stale() {
		t.Error("a fresh load is stale")
	}
}

func TestLoadBrokenFiles(t *testing.T) {
	home, root := testenv.TempDir(t), testenv.TempDir(t)
	write(t, UserFile(home), `{"permissions": {"deny": "Bash(rm:*)"}}`)
	write(t, ProjectFile(root), `{not json`)
	write(t, LocalFile(root), strings.Repeat(" ", maxFileSize+1))
	s := Load(context.Background(), Options{Home: home, Root: root})
	if len(s.Entries) != 0 || len(s.Problems) != 3 {
		t.Errorf("entries %+v problems %q", s.Entries, s.Problems)
	}
}

func TestSaveAndRemoveLocal(t *testing.T) {
	root := testenv.TempDir(t)
	if ok, err := RemoveLocal(root, "Bash(rm:*)"); ok || err != nil {
		t.Errorf("remove from no file: %v %v", ok, err)
	}
	if _, err := os.Lstat(filepath.Join(root, ".tandem")); err == nil {
		t.Error("removing from no file created .tandem")
	}
	write(t, LocalFile(root), `{"env": {"A": "1"}, "permissions": {"defaultMode": "plan", "deny": ["Bash(rm:*)"]}}`)
	if err := SaveLocal(root, policy.Allow, "run_command(go test:*)", "run_command(go test:*)"); err != nil {
		t.Fatal(err)
	}
	l, err := readLists(LocalFile(root))
	if err != nil || !slices.Equal(l.Allow, []string{"run_command(go test:*)"}) || !slices.Equal(l.Deny, []string{"Bash(rm:*)"}) {
		t.Fatalf("after save: %+v, %v", l, err)
	}
	b, _ := os.ReadFile(LocalFile(root))
	if !strings.Contains(string(b), `"defaultMode": "plan"`) || !strings.Contains(string(b), `"A": "1"`) {
		t.Errorf("other keys were lost:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(root, ".tandem", ".gitignore")); err != nil {
		t.Errorf("no .gitignore: %v", err)
	}
	if ok, err := RemoveLocal(root, "Bash(rm:*)"); !ok || err != nil {
		t.Errorf("remove: %v %v", ok, err)
	}
	if ok, _ := RemoveLocal(root, "Bash(rm:*)"); ok {
		t.Error("removed twice")
	}
	if l, _ := readLists(LocalFile(root)); len(l.Deny) != 0 || len(l.Allow) != 1 {
		t.Errorf("after remove: %+v", l)
	}
}

// TestSaveRefusesSymlinks: a repository that makes .tandem or the personal
// file a symlink cannot steer tandem's write elsewhere.
func TestSaveRefusesSymlinks(t *testing.T) {
	outside := testenv.TempDir(t)
	root := testenv.TempDir(t)
	testenv.Symlink(t, outside, filepath.Join(root, ".tandem"))
	if err := SaveLocal(root, policy.Allow, "run_command(ls:*)"); err == nil {
		t.Error("saved through a symlinked .tandem")
	}
	root2 := testenv.TempDir(t)
	os.Mkdir(filepath.Join(root2, ".tandem"), 0o755)
	target := filepath.Join(outside, "x.json")
	write(t, target, "{}")
	testenv.Symlink(t, target, LocalFile(root2))
	if err := SaveLocal(root2, policy.Allow, "run_command(ls:*)"); err == nil {
		t.Error("saved through a symlinked settings.local.json")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("something was written outside: %v", entries)
	}
	if b, _ := os.ReadFile(target); string(b) != "{}" {
		t.Errorf("the link target changed: %s", b)
	}
}

// TestCommittedLocalFileNeedsConsent: a settings.local.json that git
// tracks came with the repository, so its allow rules wait like the
// project file's.
func TestCommittedLocalFileNeedsConsent(t *testing.T) {
	testenv.Program(t, "git")
	root := testenv.TempDir(t)
	write(t, LocalFile(root), `{"permissions": {"allow": ["Bash(curl:*)"]}}`)
	opts := Options{Root: root}
	if s := Load(context.Background(), opts); len(s.Pending) != 0 {
		t.Fatalf("an untracked personal file waits for consent: %q", s.Pending)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-f", ".tandem/settings.local.json"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if s := Load(context.Background(), opts); !slices.Equal(s.Pending, []string{"Bash(curl:*)"}) {
		t.Errorf("a tracked personal file's allow rules are in force: pending %q", s.Pending)
	}
}

// TestPlantedRulesWait: allow rules a command wrote into the personal file
// wait for consent, like the project's; the user's own do not.
func TestPlantedRulesWait(t *testing.T) {
	home, root := testenv.TempDir(t), testenv.TempDir(t)
	before := ReadLocal(root)
	write(t, LocalFile(root), `{"permissions": {"allow": ["Bash(ls:*)", "run_command"]}}`)
	added := before.Added(ReadLocal(root))
	if !slices.Equal(added, []string{"Bash(ls:*)", "run_command"}) {
		t.Fatalf("added %q", added)
	}
	if again := ReadLocal(root).Added(ReadLocal(root)); again != nil {
		t.Errorf("an unchanged file added %q", again)
	}
	c := Consents{Home: home}
	if err := c.MarkPlanted(root, "run_command"); err != nil {
		t.Fatal(err)
	}
	s := Load(context.Background(), Options{Home: home, Root: root, Planted: func(text string) bool { return c.Planted(root, text) }})
	if !slices.Equal(s.Pending, []string{"run_command"}) || !slices.Equal(texts(s, true), []string{"allow Bash(ls:*) @.tandem/settings.local.json"}) {
		t.Errorf("pending %q, active %q", s.Pending, texts(s, true))
	}
	if c.Planted(testenv.TempDir(t), "run_command") {
		t.Error("a planted rule counts in another project")
	}
}

// A later "Always reject" replaces an earlier "Always allow" of the same
// rule in the personal file; a later "Always allow" leaves a deny of it
// alone, since deny comes first.
func TestSaveDenyReplacesTheSameAllow(t *testing.T) {
	root := testenv.TempDir(t)
	if err := SaveLocal(root, policy.Allow, "run_command(echo ok:*)", "run_command(ls:*)"); err != nil {
		t.Fatal(err)
	}
	if err := SaveLocal(root, policy.Deny, "run_command(echo ok:*)"); err != nil {
		t.Fatal(err)
	}
	l, err := readLists(LocalFile(root))
	if err != nil || !slices.Equal(l.Allow, []string{"run_command(ls:*)"}) || !slices.Equal(l.Deny, []string{"run_command(echo ok:*)"}) {
		t.Fatalf("after the reject: %+v, %v", l, err)
	}
	if err := SaveLocal(root, policy.Allow, "run_command(echo ok:*)"); err != nil {
		t.Fatal(err)
	}
	set := Load(context.Background(), Options{Root: root})
	rs := set.Rules()
	v := policy.Decide(policy.Mode("code"), policy.Call{Tool: "run_command", Group: "execute", Root: root, Command: "echo ok again"}, rs)
	if v.Decision != policy.Deny || v.Denier == nil || v.Denier.String() != "run_command(echo ok:*)" {
		t.Errorf("with both saved: %v by %v, want the deny", v.Decision, v.Denier)
	}
}

// Each file says, for /permissions, where its rules apply.
func TestScopes(t *testing.T) {
	for k, want := range map[Kind]string{User: "every project", Project: "everyone who clones it", Committed: "everyone who clones it", Local: `where "always" answers are saved`} {
		if got := k.Scope(); !strings.Contains(got, want) {
			t.Errorf("kind %d: %q, want %q", k, got, want)
		}
	}
}
