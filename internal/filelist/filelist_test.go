package filelist

import (
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// tree exercises nested .gitignore files, negation, anchored and directory
// patterns, and a skipped directory at two depths.
var tree = map[string]string{
	".gitignore":            "*.log\n!keep.log\n/out/\nlogs/\n# comment\n\n",
	"a.go":                  "a",
	"a.log":                 "a",
	"keep.log":              "k",
	"local.go":              "l", // pkg/.gitignore does not reach up
	"out/x.go":              "x",
	"pkg/.gitignore":        "local.go\r\n",
	"pkg/b.go":              "b",
	"pkg/local.go":          "l",
	"pkg/logs/z.go":         "z", // logs/ matches at any depth
	"pkg/out/y.go":          "y", // /out/ is anchored to the root
	"pkg/node_modules/n.js": "n",
	"node_modules/m.js":     "m",
}

// writeTree creates files under dir; none may exist yet.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, content := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(content), Mode: 0o644}
	}
	if err := os.CopyFS(dir, fsys); err != nil {
		t.Fatal(err)
	}
}

// age sets the times of the named paths under root (every path when none
// is named) to ago before now, old enough for the cache to trust them.
func age(t *testing.T, root string, ago time.Duration, names ...string) {
	t.Helper()
	when := time.Now().Add(-ago)
	if len(names) == 0 {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type()&os.ModeSymlink == 0 {
				err = os.Chtimes(p, when, when)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range names {
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(name)), when, when); err != nil {
			t.Fatal(err)
		}
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(testenv.Program(t, "git"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func isGo(rel string) bool { return path.Ext(rel) == ".go" }

var skip = []string{".git", "node_modules"}

// TestWalkAgreesWithGit checks the walk against the expected listing and
// against git ls-files on the same tree, for each kind of option.
func TestWalkAgreesWithGit(t *testing.T) {
	plain, repo := t.TempDir(), t.TempDir()
	writeTree(t, plain, tree)
	writeTree(t, repo, tree)
	git(t, repo, "init", "-q")
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"all", Options{Skip: skip}, ".gitignore a.go keep.log local.go pkg/.gitignore pkg/b.go pkg/out/y.go"},
		{"keep", Options{Skip: skip, Keep: isGo}, "a.go local.go pkg/b.go pkg/out/y.go"},
		{"dir", Options{Skip: skip, Dir: "pkg"}, "pkg/.gitignore pkg/b.go pkg/out/y.go"},
		{"deep dir", Options{Skip: skip, Dir: "pkg/out"}, "pkg/out/y.go"},
		// Skip applies below Dir: a skipped directory asked for by name is
		// listed, by git as by the walk.
		{"skipped dir named", Options{Skip: skip, Dir: "pkg/node_modules"}, "pkg/node_modules/n.js"},
		{"no skip", Options{Dir: "pkg", Keep: func(rel string) bool { return !strings.HasSuffix(rel, ".gitignore") }},
			"pkg/b.go pkg/node_modules/n.js pkg/out/y.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			walked, err := List(context.Background(), plain, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(walked.Files, " "); got != tt.want {
				t.Errorf("walk listed %s\nwant %s", got, tt.want)
			}
			if len(walked.Problems) > 0 || walked.Truncated {
				t.Errorf("walk problems %v truncated %v", walked.Problems, walked.Truncated)
			}
			listed, err := Git(context.Background(), repo, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(listed)
			if got := strings.Join(listed, " "); got != tt.want {
				t.Errorf("git listed %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestListStrategy(t *testing.T) {
	plain, repo := t.TempDir(), t.TempDir()
	writeTree(t, plain, map[string]string{"a.go": "a"})
	writeTree(t, repo, map[string]string{"a.go": "a", "gone.go": "g", "ignored.go": "i", ".gitignore": "ignored.go\n"})
	if _, err := Git(context.Background(), plain, Options{}); err == nil {
		t.Error("Git succeeded outside a work tree")
	}
	git(t, repo, "init", "-q")
	if !InsideGit(filepath.Join(repo, "sub")) || InsideGit(plain) {
		t.Error("InsideGit cannot tell a repository from a plain directory")
	}
	git(t, repo, "add", "-A")
	git(t, repo, "add", "-f", "ignored.go")
	git(t, repo, "commit", "-qm", "x")
	if err := os.Remove(filepath.Join(repo, "gone.go")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		check bool
		want  string
	}{{false, ".gitignore a.go gone.go ignored.go"}, {true, ".gitignore a.go ignored.go"}} {
		res, err := List(context.Background(), repo, Options{Skip: skip, CheckGit: tt.check})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(res.Files, " "); got != tt.want {
			t.Errorf("CheckGit %v: listed %s, want %s (tracked files count even when ignored)", tt.check, got, tt.want)
		}
	}
}

func TestMax(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a": "", "b": "", "c/d": "", "c/e": ""})
	for _, tt := range []struct {
		max       int
		files     int
		truncated bool
	}{{0, 4, false}, {2, 2, true}, {4, 4, true}, {5, 4, false}} {
		res, err := List(context.Background(), dir, Options{Max: tt.max})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != tt.files || res.Truncated != tt.truncated {
			t.Errorf("Max %d: %d files %v, truncated %v; want %d, %v", tt.max, len(res.Files), res.Files, res.Truncated, tt.files, tt.truncated)
		}
	}
}

// Links are listed only when asked, never followed; a FIFO is never listed
// and must not block the walk.
func TestSymlinksAndSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.go": "a", "pkg/b.go": "b"})
	if err := os.Symlink(".", filepath.Join(dir, "pkg", "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "a.go"), filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	if err := testenv.Mkfifo(filepath.Join(dir, "pipe.go")); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		links bool
		want  string
	}{{false, "a.go pkg/b.go"}, {true, "a.go link.go pkg/b.go pkg/loop"}} {
		res, err := List(context.Background(), dir, Options{Symlinks: tt.links})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(res.Files, " "); got != tt.want {
			t.Errorf("Symlinks %v: listed %s, want %s", tt.links, got, tt.want)
		}
	}
}

func TestUnreadableStartIsAProblem(t *testing.T) {
	res, err := Walk(context.Background(), t.TempDir(), Options{Dir: "missing"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 1 || res.Problems[0].Dir != "missing" || !os.IsNotExist(res.Problems[0].Err) {
		t.Errorf("problems %v", res.Problems)
	}
}

func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := List(ctx, t.TempDir(), Options{}); err != context.Canceled {
		t.Errorf("List on a canceled context: %v", err)
	}
}

// TestCache checks that unchanged directories are served from the cache
// and that no change is hidden: a new file, a .gitignore edited in a
// directory whose listing is still cached, a removed directory.
func TestCache(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree)
	age(t, root, time.Hour)
	cache := NewCache()
	opts := Options{Skip: skip, Cache: cache}
	list := func() string {
		t.Helper()
		res, err := List(context.Background(), root, opts)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(res.Files, " ")
	}
	want := ".gitignore a.go keep.log local.go pkg/.gitignore pkg/b.go pkg/out/y.go"
	if got := list(); got != want {
		t.Fatalf("listed %s\nwant %s", got, want)
	}
	rootListing, pkgListing := cache.dirs[""], cache.dirs["pkg"]
	if got := list(); got != want || cache.dirs["pkg"] != pkgListing {
		t.Errorf("second walk: listed %s, pkg reread %v", got, cache.dirs["pkg"] != pkgListing)
	}

	writeTree(t, root, map[string]string{"pkg/new.go": "n"})
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\n/out/\nlogs/\nlocal.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, "pkg", "out")); err != nil {
		t.Fatal(err)
	}
	age(t, root, 30*time.Minute, "pkg", "pkg/new.go", ".gitignore")
	want = ".gitignore a.go pkg/.gitignore pkg/b.go pkg/new.go"
	if got := list(); got != want {
		t.Errorf("after changes: listed %s\nwant %s", got, want)
	}
	if l := cache.dirs[""]; l == rootListing || &l.files[0] != &rootListing.files[0] {
		t.Error("the root listing was not reused with its new .gitignore")
	}
	if _, ok := cache.dirs["pkg/out"]; ok {
		t.Error("the cache still holds a removed directory")
	}
}

func TestSkipped(t *testing.T) {
	skip := []string{"vendor", "node_modules"}
	tests := map[string]bool{
		"a.go": false, "vendor/a.go": true, "x/node_modules/y.js": true, "vendor": true,
		"vendored/a.go": false, "src/vendor.go": false, "src/vendor/x.go": true,
	}
	for p, want := range tests {
		if got := Skipped(p, skip); got != want {
			t.Errorf("Skipped(%q) = %v, want %v", p, got, want)
		}
	}
}

// A workspace that its enclosing repository ignores as a whole (a home
// directory kept in git with .gitignore "*") is walked, not reported empty;
// one where git lists a tracked file stays git's to list.
func TestIgnoredRootIsWalked(t *testing.T) {
	home := t.TempDir()
	writeTree(t, home, map[string]string{
		".gitignore":              "*\n",
		"scratch/main.go":         "m",
		"scratch/.gitignore":      "gen.go\n",
		"scratch/gen.go":          "g",
		"scratch/pkg/util.go":     "u",
		"tracked/readme.md":       "r",
		"tracked/empty/.keep_not": "",
	})
	git(t, home, "init", "-q")
	git(t, home, "add", "-f", "tracked/readme.md")
	git(t, home, "commit", "-qm", "x")
	res, err := List(context.Background(), filepath.Join(home, "scratch"), Options{Skip: skip})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Files, " "); got != ".gitignore main.go pkg/util.go" {
		t.Errorf("ignored root listed %q, want its files minus its own ignores", got)
	}
	// tracked/ holds a tracked file, so git answers for it, ignore rules and all.
	res, err = List(context.Background(), filepath.Join(home, "tracked"), Options{Skip: skip})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Files, " "); got != "readme.md" {
		t.Errorf("tracked directory listed %q, want readme.md", got)
	}
}
