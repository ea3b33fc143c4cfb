package fserr

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tandemhq/tandem/internal/testenv"
)

// Real errors from this OS: a missing file and a file used as a directory
// are both absent; neither is a full disk.
func TestAbsent(t *testing.T) {
	dir := testenv.TempDir(t)
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "missing"), filepath.Join(file, "child")} {
		_, err := os.Lstat(p)
		if !Absent(fmt.Errorf("wrapped: %w", err)) {
			t.Errorf("Absent(%v) = false", err)
		}
		if DiskFull(err) || TooLarge(err) || IO(err) {
			t.Errorf("%v classified as a disk error", err)
		}
	}
	if Absent(os.ErrPermission) {
		t.Error("Absent(ErrPermission) = true")
	}
}
