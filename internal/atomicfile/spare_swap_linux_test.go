package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Something else swapped in for the target between the look at it and the
// exchange: a symlink out of the root or a FIFO is replaced by the new
// file, as the rename would have replaced it, and never written through
// nor kept as a spare; a directory is put back and the edit fails, as a
// rename over a directory does. Nothing of the tree stays in the home.
func TestSpareHandlesWhatWasSwappedIn(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret")
	os.WriteFile(secret, []byte("secret"), 0o600)
	for _, c := range []struct {
		name    string
		swapIn  func(p string) error
		wantErr bool
	}{
		{"symlink out", func(p string) error { return os.Symlink(secret, p) }, false},
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }, false},
		{"directory", func(p string) error {
			if err := os.Mkdir(p, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(p, "marker"), []byte("mine"), 0o644)
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, root, home, sp := spareDir(t)
			f := filepath.Join(root, "f")
			os.WriteFile(f, []byte("old"), 0o644)
			// A first edit makes the spare, so the swapped-in thing lands
			// where a reclaimed spare would.
			if err := WriteIn(d, "f", []byte("first"), 0o644); err != nil {
				t.Fatal(err)
			}
			sp.beforeExchange = func() {
				sp.beforeExchange = nil
				tmp := filepath.Join(root, "swap")
				if err := c.swapIn(tmp); err != nil {
					t.Fatal(err)
				}
				os.Remove(f) // a directory cannot be renamed over a file
				if err := os.Rename(tmp, f); err != nil {
					t.Fatal(err)
				}
			}
			err := WriteIn(d, "f", []byte("second"), 0o644)
			if c.wantErr {
				if err == nil {
					t.Error("the edit over a directory went ahead")
				}
				if got, _ := os.ReadFile(filepath.Join(f, "marker")); string(got) != "mine" {
					t.Errorf("the directory is not back in the tree: marker reads %q", got)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				assertFile(t, f, "second", 0o644)
			}
			if got, _ := os.ReadFile(secret); string(got) != "secret" {
				t.Errorf("the file outside holds %q", got)
			}
			for p, size := range spareFiles(t, sp, home) {
				if fi, _ := os.Lstat(p); !fi.Mode().IsRegular() || size != 0 {
					t.Errorf("the home keeps %s: %v, %d bytes", p, fi.Mode(), size)
				}
			}
			filepath.WalkDir(home, func(p string, e os.DirEntry, err error) error {
				if rel, _ := filepath.Rel(home, p); err == nil && e.IsDir() && filepath.Dir(rel) != "." {
					t.Errorf("a directory from the tree stays in the home: %s", p)
				}
				return nil
			})
			// The Spares goes on working.
			if c.wantErr {
				os.RemoveAll(f)
				os.WriteFile(f, []byte("again"), 0o644)
			}
			if err := WriteIn(d, "f", []byte("third"), 0o644); err != nil {
				t.Fatal(err)
			}
			assertFile(t, f, "third", 0o644)
		})
	}
}
