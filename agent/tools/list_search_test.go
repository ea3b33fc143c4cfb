package tools

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/internal/testenv"
)

var ignoreTree = map[string]string{
	".gitignore":               "*.log\nbuild/\n!keep.log\n",
	"main.go":                  "package main\n\nfunc main() {}\n",
	"app.log":                  "func in a log\n",
	"keep.log":                 "kept\n",
	"build/out.go":             "func built() {}\n",
	"src/.gitignore":           "gen_*.go\n",
	"src/a.go":                 "package src\n\nfunc A() {}\n",
	"src/gen_x.go":             "func Generated() {}\n",
	"src/x.log":                "func logged\n",
	"src/deep/b.go":            "package deep\n\nfunc B() {}\n",
	"node_modules/pkg/func.js": "function f() {}\n",
	"docs/readme.md":           "# docs\nfunc in prose\n",
	"vendor/lib/v.go":          "package lib\n", // skipped as tandem defs skips it, unless named
}

// workspaces returns the ignore tree as a plain directory and as a git
// work tree, so both listing strategies meet the same expectations.
func workspaces(t *testing.T) map[string]*fixture {
	plain := newFixture(t, ignoreTree)
	repo := newFixture(t, ignoreTree)
	git := testenv.Program(t, "git")
	if out, err := exec.Command(git, "-C", repo.root, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	// One tracked file, the rest untracked: ls-files must report both.
	if out, err := exec.Command(git, "-C", repo.root, "add", "main.go").CombinedOutput(); err != nil {
		t.Fatalf("git add: %v %s", err, out)
	}
	return map[string]*fixture{"plain": plain, "git": repo}
}

func lines(s string) []string { return strings.Split(strings.TrimSpace(s), "\n") }

func TestListFilesHonoursIgnores(t *testing.T) {
	cases := []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"recursive": true}, []string{".gitignore", "docs/readme.md", "keep.log", "main.go", "src/.gitignore", "src/a.go", "src/deep/b.go"}},
		{map[string]any{}, []string{".gitignore", "docs/", "keep.log", "main.go", "src/"}},
		{map[string]any{"path": "src"}, []string{"src/.gitignore", "src/a.go", "src/deep/"}},
		{map[string]any{"path": "src/deep", "recursive": true}, []string{"src/deep/b.go"}},
		{map[string]any{"path": "vendor", "recursive": true}, []string{"vendor/lib/v.go"}},
	}
	for kind, f := range workspaces(t) {
		for _, c := range cases {
			res := f.run(t, NewListFiles(), c.args)
			if res.IsError {
				t.Fatalf("%s %v: %s", kind, c.args, res.Output)
			}
			if got := strings.Join(lines(res.Output), ","); got != strings.Join(c.want, ",") {
				t.Errorf("%s %v:\n got %s\nwant %s", kind, c.args, got, strings.Join(c.want, ","))
			}
		}
	}
}

func TestListFilesErrorsAndCap(t *testing.T) {
	files := map[string]string{"f.txt": "x"}
	for i := 0; i < listMaxEntries+37; i++ {
		files[fmt.Sprintf("many/%04d.txt", i)] = "x"
	}
	f := newFixture(t, files)
	res := f.run(t, NewListFiles(), map[string]any{"path": "many"})
	if got := strings.Count(res.Output, ".txt\n"); got != listMaxEntries {
		t.Errorf("listed %d entries, want %d", got, listMaxEntries)
	}
	if !strings.Contains(res.Output, "37 more entries not shown") {
		t.Errorf("no count of what was left out:\n%s", res.Output[len(res.Output)-200:])
	}
	for _, c := range []struct{ path, want string }{
		{"f.txt", "not a directory"},
		{"missing", "cannot list missing"},
	} {
		res := f.run(t, NewListFiles(), map[string]any{"path": c.path})
		if !res.IsError || !strings.Contains(res.Output, c.want) {
			t.Errorf("list %s: %+v, want error %q", c.path, res, c.want)
		}
	}
}

func TestSearchFiles(t *testing.T) {
	cases := []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"pattern": `func \w+\(`}, []string{
			"main.go:3: func main() {}", "src/a.go:3: func A() {}", "src/deep/b.go:3: func B() {}"}},
		{map[string]any{"pattern": "func", "glob": "*.md"}, []string{"docs/readme.md:2: func in prose"}},
		{map[string]any{"pattern": "func", "glob": "src/**/*.go"}, []string{"src/a.go:3: func A() {}", "src/deep/b.go:3: func B() {}"}},
		{map[string]any{"pattern": "^func", "glob": "*.{md,go}", "path": "src/deep"}, []string{"src/deep/b.go:3: func B() {}"}},
		{map[string]any{"pattern": "(?i)PACKAGE", "path": "src/a.go"}, []string{"src/a.go:1: package src"}},
	}
	for kind, f := range workspaces(t) {
		for _, c := range cases {
			res := f.run(t, NewSearchFiles(), c.args)
			if res.IsError {
				t.Fatalf("%s %v: %s", kind, c.args, res.Output)
			}
			if got := strings.Join(lines(res.Output), "|"); got != strings.Join(c.want, "|") {
				t.Errorf("%s %v:\n got %s\nwant %s", kind, c.args, got, strings.Join(c.want, "|"))
			}
		}
	}
}

func TestSearchFilesLimitsAndErrors(t *testing.T) {
	var many strings.Builder
	for i := 1; i <= searchMaxMatches+100; i++ {
		fmt.Fprintf(&many, "hit %d\n", i)
	}
	f := newFixture(t, map[string]string{
		"many.txt": many.String(),
		"long.txt": "   needle " + strings.Repeat("z", 500) + "\n",
		"bin.dat":  "needle\x00\x01\x02",
	})
	res := f.run(t, NewSearchFiles(), map[string]any{"pattern": "hit"})
	if got := strings.Count(res.Output, "many.txt:"); got != searchMaxMatches {
		t.Errorf("%d matches shown, want %d", got, searchMaxMatches)
	}
	if !strings.Contains(res.Output, "100 more matches not shown (300 in total, in 1 files)") {
		t.Errorf("no count of what was left out:\n%s", res.Output[len(res.Output)-200:])
	}

	res = f.run(t, NewSearchFiles(), map[string]any{"pattern": "needle"})
	got := lines(res.Output)
	if len(got) != 1 || !strings.HasPrefix(got[0], "long.txt:1: needle zzz") || !strings.HasSuffix(got[0], "…") ||
		len(got[0]) > len("long.txt:1: ")+searchMaxLineBytes+len("…") {
		t.Errorf("long line not trimmed, or binary file searched: %q", got)
	}

	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"pattern": "(unclosed"}, "invalid regular expression"},
		{map[string]any{"pattern": `(?<=x)y`}, "RE2"},
		{map[string]any{"pattern": ""}, "empty"},
		{map[string]any{"pattern": "x", "glob": "*.{go"}, "invalid glob"},
		{map[string]any{"pattern": "x", "path": "nowhere"}, "cannot search nowhere"},
	} {
		res := f.run(t, NewSearchFiles(), c.args)
		if !res.IsError || !strings.Contains(res.Output, c.want) {
			t.Errorf("%v: %+v, want error containing %q", c.args, res, c.want)
		}
	}
	res = f.run(t, NewSearchFiles(), map[string]any{"pattern": "absent-word"})
	if res.IsError || !strings.Contains(res.Output, "No matches") {
		t.Errorf("no-match result: %+v", res)
	}
}

func TestExpandBraces(t *testing.T) {
	cases := map[string]string{
		"*.go":           "*.go",
		"*.{ts,tsx}":     "*.ts|*.tsx",
		"{a,b}/{c,d}.go": "a/c.go|a/d.go|b/c.go|b/d.go",
		"x.{a,{b,c}}":    "x.a|x.b|x.c",
	}
	for in, want := range cases {
		got, err := expandBraces(in)
		if err != nil || strings.Join(got, "|") != want {
			t.Errorf("expandBraces(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"{a,b", "a}", strings.Repeat("{a,b}", 8)} {
		if _, err := expandBraces(bad); err == nil {
			t.Errorf("expandBraces(%q) succeeded", bad)
		}
	}
}

// Inside a git work tree git decides what is listed; elsewhere the walk.
func TestListingStrategy(t *testing.T) {
	ws := workspaces(t)
	repo, plain := ws["git"], ws["plain"]
	ctx := t.Context()
	if _, err := gitFiles(ctx, plain.root, plain.root); err == nil {
		t.Error("gitFiles succeeded outside a git work tree")
	}
	// A tracked file deleted from the work tree is not listed.
	if err := exec.Command("rm", repo.abs("main.go")).Run(); err != nil {
		t.Fatal(err)
	}
	files, err := gitFiles(ctx, repo.root, repo.root)
	if err != nil {
		t.Fatalf("gitFiles in a repo: %v", err)
	}
	if strings.Contains(strings.Join(files, ","), "main.go") {
		t.Errorf("deleted tracked file listed: %v", files)
	}
	writeTree(t, repo.root, map[string]string{".git/info/exclude": "docs/\n"})
	res := repo.run(t, NewListFiles(), map[string]any{})
	if strings.Contains(res.Output, "docs") {
		t.Errorf("git's own exclude file not honoured:\n%s", res.Output)
	}
}

// A session rooted in a subdirectory of a repository still obeys the
// repository's ignore files above it.
func TestListFilesRootBelowRepo(t *testing.T) {
	repo := workspaces(t)["git"]
	sub := &fixture{root: repo.abs("src"), host: &testHost{}, asker: &asker{}}
	sub.env = &Env{Root: sub.root, Host: sub.host, Ask: sub.asker.ask}
	res := sub.run(t, NewListFiles(), map[string]any{"recursive": true})
	if got := strings.Join(lines(res.Output), ","); got != ".gitignore,a.go,deep/b.go" {
		t.Errorf("got %s", got)
	}
	res = sub.run(t, NewSearchFiles(), map[string]any{"pattern": "func"})
	if got := strings.Join(lines(res.Output), "|"); got != "a.go:3: func A() {}|deep/b.go:3: func B() {}" {
		t.Errorf("got %s", got)
	}
}
