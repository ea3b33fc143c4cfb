package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/tandemhq/tandem/internal/testenv"
)

func TestWriteCreatesAndReplaces(t *testing.T) {
	dir := testenv.TempDir(t)
	p := filepath.Join(dir, "a.txt")
	if err := Write(p, []byte("one"), 0o640); err != nil {
		t.Fatal(err)
	}
	assertFile(t, p, "one", 0o640)

	// An existing file keeps its mode, whatever perm says.
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	assertFile(t, p, "two", 0o755)
	assertOnly(t, dir, "a.txt")
}

func TestWriteWithFailureLeavesTargetAndNoTemp(t *testing.T) {
	dir := testenv.TempDir(t)
	p := filepath.Join(dir, "cache")
	if err := Write(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteWith(p, 0o600, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want it to wrap boom", err)
	}
	assertFile(t, p, "old", 0o600)
	assertOnly(t, dir, "cache")
}

// WriteCache is WriteWith but for the fsync: the same replacement, mode
// and clean-up, both on success and when fill fails.
func TestWriteCacheReplacesLikeWriteWith(t *testing.T) {
	dir := testenv.TempDir(t)
	p := filepath.Join(dir, "cache")
	fill := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := WriteCache(p, 0o640, fill("one")); err != nil {
		t.Fatal(err)
	}
	assertFile(t, p, "one", 0o640)
	if err := WriteCache(p, 0o600, fill("two")); err != nil {
		t.Fatal(err)
	}
	assertFile(t, p, "two", 0o640)
	boom := errors.New("boom")
	if err := WriteCache(p, 0o600, func(w io.Writer) error { io.WriteString(w, "half"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want it to wrap boom", err)
	}
	assertFile(t, p, "two", 0o640)
	assertOnly(t, dir, "cache")
}

func TestWriteMissingDirectory(t *testing.T) {
	p := filepath.Join(testenv.TempDir(t), "no", "such", "f")
	if err := Write(p, []byte("x"), 0o644); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want not-exist", err)
	}
}

func assertFile(t *testing.T, p, want string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want || fi.Mode().Perm() != testenv.Perm(mode) {
		t.Errorf("%s = %q mode %v, want %q mode %v", p, b, fi.Mode().Perm(), want, mode)
	}
}

func assertOnly(t *testing.T, dir, name string) {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 || es[0].Name() != name {
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only %s (a temporary file was left behind?)", names, name)
	}
}
