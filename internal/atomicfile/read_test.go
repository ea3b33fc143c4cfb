package atomicfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/tandemhq/tandem/internal/testenv"
)

// ReadFile reads what os.ReadFile reads, and fails where it fails.
func TestReadFileMatchesOSReadFile(t *testing.T) {
	dir := testenv.TempDir(t)
	big := bytes.Repeat([]byte("0123456789abcdef\n"), 100_000)
	files := map[string][]byte{"empty": nil, "small": []byte("package main\n"), "big": big}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{filepath.Join(dir, "empty"), filepath.Join(dir, "small"), filepath.Join(dir, "big")} {
		got, err := ReadFile(p)
		if err != nil {
			t.Fatalf("ReadFile(%s): %v", p, err)
		}
		want, _ := os.ReadFile(p)
		if !bytes.Equal(got, want) {
			t.Errorf("ReadFile(%s): %d bytes, want %d", p, len(got), len(want))
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: err = %v, want fs.ErrNotExist", err)
	}
	var pe *fs.PathError
	if _, err := ReadFile(dir); err == nil || !errors.As(err, &pe) || pe.Path != dir {
		t.Errorf("directory: err = %v, want a *fs.PathError naming it", err)
	}
}
