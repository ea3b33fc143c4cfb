package codeindex

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// ignoreTree exercises nested .gitignore files, negation, anchored and
// directory patterns, and the built-in skip list.
var ignoreTree = map[string]string{
	".gitignore":              "*.gen.go\n!keep.gen.go\n/out/\nlogs/\n# comment\n\n",
	"main.go":                 "package main\n",
	"a.gen.go":                "package main\n",
	"keep.gen.go":             "package main\n",
	"out/x.go":                "package out\n",
	"pkg/out/y.go":            "package out\n", // /out/ is anchored to the root: kept
	"pkg/logs/z.py":           "x = 1\n",       // logs/ matches at any depth
	"pkg/.gitignore":          "local.py\n*.tmp.js\n",
	"pkg/local.py":            "x = 1\n",
	"pkg/app.py":              "x = 1\n",
	"pkg/w.tmp.js":            "var a;\n",
	"local.py":                "x = 1\n", // pkg/.gitignore does not reach up
	"node_modules/m/index.js": "var a;\n",
	"vendor/v/v.go":           "package v\n",
	"build/b.c":               "int x;\n",
	"docs/readme.md":          "# not source\n",
	"src/lib.rs":              "fn f() {}\n",
}

var ignoreWant = []string{"keep.gen.go", "local.py", "main.go", "pkg/app.py", "pkg/out/y.go", "src/lib.rs"}

func TestWalkHonoursGitignore(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, ignoreTree)
	// A symlink loop and a symlinked file are not followed; a FIFO is not
	// a regular file and must not block the walk.
	if err := os.Symlink(".", filepath.Join(dir, "pkg", "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "main.go"), filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	if err := testenv.Mkfifo(filepath.Join(dir, "pipe.go")); err != nil {
		t.Fatal(err)
	}
	got, problems, err := walkFiles(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !equal(sorted(got), ignoreWant) {
		t.Errorf("walk listed\n%s\nwant\n%s", strings.Join(sorted(got), "\n"), strings.Join(ignoreWant, "\n"))
	}
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
}

func TestWalkReportsUnreadableDirectory(t *testing.T) {
	dir := os.Getenv("TANDEM_TEST_UNPRIVILEGED_DIR")
	if dir == "" && os.Geteuid() == 0 {
		// Root reads every directory whatever its mode, so run this test
		// again as an unprivileged user.
		runUnprivileged(t, "TestWalkReportsUnreadableDirectory")
		return
	}
	if dir == "" {
		dir = t.TempDir()
	}
	writeTree(t, dir, map[string]string{"a.go": "package a\n", "locked/b.go": "package b\n"})
	if err := os.Chmod(filepath.Join(dir, "locked"), 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(filepath.Join(dir, "locked"), 0o755)
	got, problems, err := walkFiles(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !equal(got, []string{"a.go"}) || len(problems) != 1 || !strings.HasPrefix(problems[0], "locked") {
		t.Errorf("files %v problems %v", got, problems)
	}
}

// runUnprivileged runs the named test in a copy of the test binary as the
// user nobody, in a directory that user owns, and fails if it fails.
func runUnprivileged(t *testing.T, name string) {
	t.Helper()
	base, err := os.MkdirTemp("", "tandem-unprivileged-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	const nobody = 65534
	bin := filepath.Join(base, "test.bin")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(base, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(os.Chmod(base, 0o755), os.Chown(work, nobody, nobody)); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+name+"$", "-test.v")
	cmd.Env = append(os.Environ(), "TANDEM_TEST_UNPRIVILEGED_DIR="+work, "HOME="+work)
	cmd.Dir = work
	testenv.AsUser(cmd, nobody, nobody)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+name) {
		t.Fatalf("%s as nobody: %v\n%s", name, err, out)
	}
}

// TestWalkMatchesGit builds the same tree as a git repository and checks
// that the walk and git ls-files agree.
func TestWalkMatchesGit(t *testing.T) {
	git := testenv.Program(t, "git")
	dir := t.TempDir()
	writeTree(t, dir, ignoreTree)
	run := func(args ...string) {
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	walked, _, err := walkFiles(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	listed, err := gitFiles(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !equal(sorted(walked), sorted(listed)) {
		t.Errorf("walk %v, git %v", sorted(walked), sorted(listed))
	}
	// Tracked files count even when ignored, as git sees them.
	run("add", "-f", "a.gen.go")
	listed, err = gitFiles(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	want := append([]string{"a.gen.go"}, ignoreWant...)
	if !equal(sorted(listed), sorted(want)) {
		t.Errorf("git listed %v, want %v", sorted(listed), sorted(want))
	}
}

func TestSkipped(t *testing.T) {
	tests := map[string]bool{
		"a.go": false, "vendor/a.go": true, "x/node_modules/y.js": true, "target/debug/x.rs": true,
		"vendored/a.go": false, "src/build.go": false, "src/build/x.go": true,
	}
	for p, want := range tests {
		if got := skipped(p); got != want {
			t.Errorf("skipped(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestRefreshWalkCache checks that remembered directory listings never hide
// a change: new files, a changed .gitignore, a removed directory.
func TestRefreshWalkCache(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, ignoreTree)
	ctx := context.Background()
	ix := open(t, root, "")
	ageDirs := func() {
		old := time.Now().Add(-time.Hour)
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chtimes(p, old, old)
			}
			return nil
		})
	}
	ageDirs()
	if _, err := ix.Refresh(ctx); err != nil { // fills the cache with trusted listings
		t.Fatal(err)
	}
	want := append([]string(nil), ignoreWant...)
	if got := paths(ix.Files("")); !equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}

	writeTree(t, root, map[string]string{"pkg/new.py": "x = 1\n", "pkg/.gitignore": "local.py\n*.tmp.js\napp.py\n"})
	if err := os.RemoveAll(filepath.Join(root, "src")); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	want = []string{"keep.gen.go", "local.py", "main.go", "pkg/new.py", "pkg/out/y.go"}
	if got := paths(ix.Files("")); !equal(got, want) {
		t.Errorf("after changes: files %v, want %v", got, want)
	}
}
