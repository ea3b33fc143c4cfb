package codeindex

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/treesitter"
)

var smallTree = map[string]string{
	"shapes/shapes.go": "package shapes\n\nconst Pi = 3.14\n\ntype Circle struct{ R float64 }\n\nfunc NewCircle(r float64) Circle {\n\treturn Circle{R: r}\n}\n\nfunc (c Circle) Area() float64 { return Pi * c.R * c.R }\n",
	"web/app.ts":       "export class App {\n  start(): void {}\n}\nexport const newApp = () => new App();\n",
	"tools/gen.py":     "def generate():\n    pass\n\nclass Builder:\n    def build(self):\n        pass\n",
}

// open opens root with its cache in cache, written however cheap the tree.
func open(t *testing.T, root, cache string) *Index {
	t.Helper()
	ix, err := Open(context.Background(), root, Options{CacheDir: cache, cacheAfter: -1})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func defNames(f *File) []string {
	var out []string
	for _, d := range f.Defs {
		out = append(out, d.Name)
	}
	return out
}

func TestOpenIndexesTree(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, smallTree)
	ix := open(t, root, t.TempDir())
	if got := paths(ix.Files("")); !equal(got, []string{"shapes/shapes.go", "tools/gen.py", "web/app.ts"}) {
		t.Fatalf("files %v", got)
	}
	f, ok := ix.File(filepath.Join(root, "shapes", "shapes.go"))
	if !ok {
		t.Fatal("shapes.go not indexed")
	}
	if got := defNames(f); !equal(got, []string{"Pi", "Circle", "R", "NewCircle", "Area"}) {
		t.Errorf("shapes.go defs %v", got)
	}
	if f.Lines != 11 || f.Lang != "go" {
		t.Errorf("lines %d lang %s", f.Lines, f.Lang)
	}
	if got := paths(ix.Files("web")); !equal(got, []string{"web/app.ts"}) {
		t.Errorf("Files(web) = %v", got)
	}
	if got := ix.Files("../elsewhere"); got != nil {
		t.Errorf("Files outside the root = %v", paths(got))
	}
}

func cacheFile(t *testing.T, cache, root string) string {
	t.Helper()
	abs, _ := filepath.EvalSymlinks(root)
	return filepath.Join(cacheDir(cache, abs), cacheName)
}

func TestWarmOpenReusesCacheWithoutRewriting(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	writeTree(t, root, smallTree)
	first := open(t, root, cache)
	path := cacheFile(t, cache, root)
	// An hour old, the cache's time tells a rewrite apart without waiting
	// for the clock to move.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatalf("cache not written: %v", err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	second := open(t, root, cache)
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Error("a warm open with nothing changed rewrote the cache")
	}
	a, _ := first.File("web/app.ts")
	b, _ := second.File("web/app.ts")
	if !equal(defNames(a), defNames(b)) || a.Hash != b.Hash {
		t.Errorf("warm defs %v differ from cold %v", defNames(b), defNames(a))
	}
}

func TestRefreshReparsesOnlyChanges(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	writeTree(t, root, smallTree)
	ix := open(t, root, cache)
	ctx := context.Background()

	st, err := ix.Refresh(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Parsed != 0 || st.Reused != 0 || st.Removed != 0 || st.Files != 3 {
		t.Errorf("idle refresh: %+v", st)
	}

	// New content: re-parsed.
	writeTree(t, root, map[string]string{"tools/gen.py": "def regenerate():\n    pass\n"})
	// Same content, new mtime: rehashed, not re-parsed.
	touched := filepath.Join(root, "web", "app.ts")
	if err := os.Chtimes(touched, time.Now().Add(-time.Minute), time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	// Deleted and added files.
	os.Remove(filepath.Join(root, "shapes", "shapes.go"))
	writeTree(t, root, map[string]string{"lib/x.rs": "pub fn x() {}\n"})

	st, err = ix.Refresh(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Parsed != 2 || st.Reused != 1 || st.Removed != 1 || st.Files != 3 {
		t.Errorf("refresh after changes: %+v", st)
	}
	f, _ := ix.File("tools/gen.py")
	if !equal(defNames(f), []string{"regenerate"}) {
		t.Errorf("gen.py defs %v", defNames(f))
	}
	// The cache now holds the new state.
	cached, err := loadCache(filepath.Dir(cacheFile(t, cache, root)), ix.Root())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cached["lib/x.rs"]; !ok || len(cached) != 3 {
		t.Errorf("cache after refresh has %d files", len(cached))
	}
}

func TestCorruptCacheIsRebuilt(t *testing.T) {
	corruptions := map[string]func([]byte) []byte{
		"garbage":   func([]byte) []byte { return []byte("not a cache at all") },
		"truncated": func(b []byte) []byte { return b[:len(b)/2] },
		"flipped":   func(b []byte) []byte { b = bytes.Clone(b); b[len(b)/2] ^= 0x40; return b },
		"empty":     func([]byte) []byte { return nil },
		// What an unsynced write can leave after a crash: blocks of zeros.
		"zeroed": func(b []byte) []byte { b = bytes.Clone(b); clear(b[len(b)/2:]); return b },
		"version": func(b []byte) []byte {
			b = bytes.Clone(b)
			b[len(cacheMagic)] = cacheVersion + 1 // checksum now fails too
			return b
		},
	}
	for name, corrupt := range corruptions {
		t.Run(name, func(t *testing.T) {
			root, cache := t.TempDir(), t.TempDir()
			writeTree(t, root, smallTree)
			open(t, root, cache)
			path := cacheFile(t, cache, root)
			good, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, corrupt(good), 0o644); err != nil {
				t.Fatal(err)
			}
			ix := open(t, root, cache)
			f, ok := ix.File("tools/gen.py")
			if !ok || !equal(defNames(f), []string{"generate", "Builder", "build"}) {
				t.Fatalf("index after corrupt cache: %v", ix.Files(""))
			}
			if _, err := loadCache(filepath.Dir(path), ix.Root()); err != nil {
				t.Errorf("cache not rebuilt: %v", err)
			}
		})
	}
}

func TestBadInputIsSkippedNotFatal(t *testing.T) {
	root := t.TempDir()
	big := strings.Repeat("var x = 1;\n", (treesitter.MaxSource/11)+10) // just over the limit: generated-looking
	writeTree(t, root, map[string]string{
		"huge.js":   big,
		"blob.c":    "int x;\x00\x01\x02binary",
		"bad.go":    "package p\n\nfunc \xff\xfeOdd() {}\n\nfunc Good() {}\n",
		"broken.py": "def ok():\n    pass\n\ndef broken(:\n",
		"fine.go":   "package p\n\nfunc F() {}\n",
	})
	ix := open(t, root, t.TempDir())
	check := func(path, wantErr string, wantDefs ...string) {
		t.Helper()
		f, ok := ix.File(path)
		if !ok {
			t.Fatalf("%s not listed", path)
		}
		if wantErr == "" && f.Err != "" || wantErr != "" && !strings.Contains(f.Err, wantErr) {
			t.Errorf("%s: err %q, want %q", path, f.Err, wantErr)
		}
		for _, want := range wantDefs {
			if !strings.Contains(strings.Join(defNames(f), ","), want) {
				t.Errorf("%s: defs %v lack %s", path, defNames(f), want)
			}
		}
	}
	check("huge.js", "limit")
	check("blob.c", "binary")
	check("bad.go", "", "Good")
	check("broken.py", "", "ok")
	check("fine.go", "", "F")
}

func TestLookupSeesEditsBeforeRefresh(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, smallTree)
	ix := open(t, root, "")
	writeTree(t, root, map[string]string{"web/app.ts": "export function boot() {}\n"})
	f, err := ix.Lookup(context.Background(), filepath.Join(root, "web", "app.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if !equal(defNames(f), []string{"boot"}) {
		t.Errorf("Lookup defs %v", defNames(f))
	}
	if g, _ := ix.File("web/app.ts"); g != f {
		t.Error("Lookup did not publish the re-parsed file")
	}
	if _, err := ix.Lookup(context.Background(), "/etc/passwd"); err == nil {
		t.Error("Lookup outside the root succeeded")
	}
}
