package custom

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func fixturePlaces(t *testing.T) Places {
	t.Helper()
	abs, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return Places{Root: filepath.Join(abs, "project"), TandemHome: filepath.Join(abs, "tandemhome"), UserHome: filepath.Join(abs, "userhome")}
}

func builtinInit(name string) bool { return name == "init" }

func names[T any](list []T, name func(T) string) string {
	var out []string
	for _, x := range list {
		out = append(out, name(x))
	}
	return strings.Join(out, ",")
}

func TestLoadFixtures(t *testing.T) {
	set := Load(Sources(fixturePlaces(t)), builtinInit)
	if got := names(set.Commands, func(c Command) string { return c.Name }); got != "commit,explain,frontend:component,review,standup" {
		t.Errorf("commands %s", got)
	}
	if got := names(set.Skills, func(s Skill) string { return s.Name }); got != "brand-voice,changelog,pdf-forms,standup-notes" {
		t.Errorf("skills %s", got)
	}
	review, _ := set.Command("review")
	if !strings.HasSuffix(review.Path, filepath.FromSlash(".tandem/commands/review.md")) || review.Scope != ScopeProject {
		t.Errorf("review came from %s (%s), want the project's .tandem folder", review.Path, review.Scope)
	}
	if review.Description != "Review a file for bugs and unclear names" || review.ArgumentHint != "<file> [focus]" || review.Model != "review-model" {
		t.Errorf("review header %+v", review)
	}
	commit, _ := set.Command("commit")
	if got := strings.Join(commit.AllowedTools, "|"); got != "Bash(git add:*)|Bash(git status:*)|Bash(git commit:*)" {
		t.Errorf("commit allowed-tools %q", got)
	}
	standup, _ := set.Command("standup")
	if standup.Scope != ScopeUser || standup.Description != "Summarise what changed in this repository since yesterday." {
		t.Errorf("a command without frontmatter: %+v", standup)
	}
	brand, _ := set.Skill("brand-voice")
	if brand.Scope != ScopeProject || !strings.Contains(brand.Description, "project's brand voice") {
		t.Errorf("brand-voice should be the project's: %+v", brand)
	}
	notes, _ := set.Skill("standup-notes")
	if notes.Description != "Turn a day's commits into standup notes." {
		t.Errorf("a skill without a name takes its folder's: %+v", notes)
	}
	var problems []string
	for _, p := range set.Problems {
		problems = append(problems, filepath.Base(filepath.Dir(p.Path))+"/"+filepath.Base(p.Path)+": "+p.Err.Error())
	}
	want := []string{"commands/broken.md: frontmatter", "commands/init.md: /init is a built-in command", "no-desc/SKILL.md: the frontmatter has no description"}
	if len(problems) != len(want) {
		t.Fatalf("problems:\n%s", strings.Join(problems, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(problems[i], w) {
			t.Errorf("problem %d = %q, want %q…", i, problems[i], w)
		}
	}
}

func TestNamespaceAndSubfolders(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a", "b", "deep.md"), "Deep.")
	write(t, filepath.Join(dir, "has space.md"), "Bad name.")
	cmds, problems := LoadCommands(Source{Dir: dir, Kind: KindCommands, Scope: ScopePlugin, Namespace: "acme"})
	if got := names(cmds, func(c Command) string { return c.Name }); got != "acme:a:b:deep" {
		t.Errorf("commands %s", got)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), "has space") {
		t.Errorf("problems %v", problems)
	}
	skillDir := t.TempDir()
	write(t, filepath.Join(skillDir, "lint", SkillFile), "---\ndescription: Lint.\n---\nRun the linter.")
	write(t, filepath.Join(skillDir, "Bad_Name", SkillFile), "---\ndescription: x\n---\n")
	skills, problems := LoadSkills(Source{Dir: skillDir, Kind: KindSkills, Scope: ScopePlugin, Namespace: "acme"})
	if len(skills) != 1 || skills[0].Name != "acme:lint" {
		t.Errorf("skills %+v", skills)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), "Bad_Name") {
		t.Errorf("problems %v", problems)
	}
}

func TestProjectSymlinkOutIsNotFollowed(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.md")
	write(t, outside, "SECRET")
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "leak.md")); err != nil {
		t.Fatal(err)
	}
	cmds, problems := LoadCommands(Source{Dir: dir, Kind: KindCommands, Scope: ScopeProject})
	if len(cmds) != 0 || len(problems) != 1 {
		t.Errorf("project link out: commands %+v, problems %v", cmds, problems)
	}
	cmds, _ = LoadCommands(Source{Dir: dir, Kind: KindCommands, Scope: ScopeUser})
	if len(cmds) != 1 || !strings.Contains(cmds[0].Body, "SECRET") {
		t.Errorf("a user's link is followed: %+v", cmds)
	}
}

func TestOversizedFileIsAProblem(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "big.md"), strings.Repeat("x", MaxFile+1))
	cmds, problems := LoadCommands(Source{Dir: dir, Kind: KindCommands})
	if len(cmds) != 0 || len(problems) != 1 || !errors.Is(problems[0].Err, errTooLarge) {
		t.Errorf("commands %d, problems %v", len(cmds), problems)
	}
}

func TestCurrentSeesChanges(t *testing.T) {
	root := t.TempDir()
	srcs := Sources(Places{Root: root})
	set := Load(srcs, builtinInit)
	if !set.Current(srcs) || len(set.Commands) != 0 {
		t.Fatalf("empty set: current %v, %d commands", set.Current(srcs), len(set.Commands))
	}
	p := filepath.Join(root, ".claude", "commands", "hi.md")
	write(t, p, "Say hi.")
	if set.Current(srcs) {
		t.Fatal("a new command file went unnoticed")
	}
	set = Load(srcs, builtinInit)
	if _, ok := set.Command("hi"); !ok || !set.Current(srcs) {
		t.Fatalf("reload: %+v", set.Commands)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	if set.Current(srcs) {
		t.Error("an edited command file went unnoticed")
	}
}

func TestExpand(t *testing.T) {
	files := map[string]string{"src/main.go": "package main", "notes.txt": "N"}
	read := func(_ context.Context, p string) (string, error) {
		if p == "../etc/passwd" {
			return "", errors.New("outside the workspace")
		}
		if s, ok := files[p]; ok {
			return s, nil
		}
		return "", fmt.Errorf("open %s: %w", p, fs.ErrNotExist)
	}
	for _, c := range []struct{ body, args, want string }{
		{"Review $ARGUMENTS now.", "a.go b.go", "Review a.go b.go now."},
		{"Make $1 with $2; not $3.", `Button "react native"`, "Make Button with react native; not ."},
		{"No placeholders.", "extra words", "No placeholders.\n\nArguments: extra words"},
		{"No placeholders.", "", "No placeholders."},
		{"Echo $ARGUMENTS", "$1 $ARGUMENTS", "Echo $1 $ARGUMENTS"},
		{"Costs $5 and $ 10", "x", "Costs  and $ 10"},
		{"Look at @src/main.go, then @nobody.", "", "Look at @src/main.go, then @nobody.\n\n<file path=\"src/main.go\">\npackage main\n</file>"},
		{"Explain @$1.", "notes.txt", "Explain @notes.txt.\n\n<file path=\"notes.txt\">\nN\n</file>"},
		{"mail me@example.com @../etc/passwd", "", "mail me@example.com @../etc/passwd\n\n[@../etc/passwd was not included: outside the workspace]"},
	} {
		got, err := Expand(context.Background(), c.body, c.args, read)
		if err != nil || got != c.want {
			t.Errorf("Expand(%q, %q) = %q, %v; want %q", c.body, c.args, got, err, c.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Expand(ctx, "@notes.txt", "", func(ctx context.Context, _ string) (string, error) { return "", ctx.Err() }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled expansion: %v", err)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
