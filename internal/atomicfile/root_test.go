package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tandemhq/tandem/internal/testenv"
)

// WriteIn creates and replaces inside the root and keeps the mode.
func TestWriteInKeepsTheMode(t *testing.T) {
	dir := testenv.TempDir(t)
	r, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := WriteIn(r, "a.txt", []byte("one"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteIn(r, "a.txt", []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	assertFile(t, filepath.Join(dir, "a.txt"), "two", 0o640)
	assertOnly(t, dir, "a.txt")
}

// WriteIn refuses a name that a symlink leads out of the root.
func TestWriteInStaysInTheRoot(t *testing.T) {
	dir, outside := testenv.TempDir(t), testenv.TempDir(t)
	r, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	testenv.Symlink(t, outside, filepath.Join(dir, "out"))
	if err := WriteIn(r, "out/b.txt", []byte("x"), 0o644); err == nil {
		t.Error("a write through a symlink out of the root went ahead")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("files appeared outside: %v", entries)
	}
	assertOnly(t, dir, "out")
}

// Every name that leads out — a symlinked directory, a symlinked file, an
// absolute link, "..", a /proc magic link — is refused for reading and
// writing, and nothing appears or changes outside: on the openat2 path and
// on the os.Root one alike.
func TestDirRefusesWhatLeadsOut(t *testing.T) {
	for _, path := range []string{"openat2", "os.Root"} {
		t.Run(path, func(t *testing.T) { testDirRefuses(t, path) })
	}
}

func testDirRefuses(t *testing.T, path string) {
	dir, outside := testenv.TempDir(t), testenv.TempDir(t)
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"outdir":   outside,
		"outfile":  secret,
		"relout":   "../" + filepath.Base(outside) + "/secret.txt",
		"magic":    "/proc/self/root" + outside,
		"inside":   "sub/real.txt",
		"insidedn": "sub",
	} {
		testenv.Symlink(t, target, filepath.Join(dir, link))
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "real.txt"), []byte("real"), 0o640); err != nil {
		t.Fatal(err)
	}
	d, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	switch path {
	case "os.Root":
		d.fallBack()
	}
	defer d.Close()
	for _, name := range []string{"outdir/secret.txt", "outfile", "relout", "magic/x", "../" + filepath.Base(outside) + "/secret.txt"} {
		if got, err := d.ReadFile(name); err == nil {
			t.Errorf("ReadFile(%s) = %q, want it refused", name, got)
		}
		if err := WriteIn(d, name, []byte("pwned"), 0o644); err == nil {
			t.Errorf("WriteIn(%s) went ahead", name)
		}
	}
	if got, _ := os.ReadFile(secret); string(got) != "secret" {
		t.Errorf("the file outside now holds %q", got)
	}
	if es, _ := os.ReadDir(outside); len(es) != 1 {
		t.Errorf("files appeared outside: %v", es)
	}
	// Links that stay inside are followed for reading; a write replaces
	// the link itself and keeps the mode of what it led to.
	for _, name := range []string{"inside", "insidedn/real.txt"} {
		if got, err := d.ReadFile(name); err != nil || string(got) != "real" {
			t.Errorf("ReadFile(%s) = %q, %v; want the file inside", name, got, err)
		}
	}
	if err := WriteIn(d, "insidedn/real.txt", []byte("through"), 0o600); err != nil {
		t.Fatal(err)
	}
	assertFile(t, filepath.Join(dir, "sub", "real.txt"), "through", 0o640)
	if err := WriteIn(d, "inside", []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	assertFile(t, filepath.Join(dir, "inside"), "new", 0o640)
	if fi, _ := os.Lstat(filepath.Join(dir, "inside")); !fi.Mode().IsRegular() {
		t.Errorf("the link was written through instead of replaced: %v", fi.Mode())
	}
}
