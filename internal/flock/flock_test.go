package flock

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
)

// A second process cannot take the lock while this one holds it, and can
// once it is released.
func TestDirExcludesOtherProcesses(t *testing.T) {
	dir := testenv.TempDir(t)
	unlock, err := Dir(dir, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := other(dir); err == nil || !strings.Contains(out, "still held") {
		t.Fatalf("another process took the held lock: %v\n%s", err, out)
	}
	unlock()
	if out, err := other(dir); err != nil {
		t.Fatalf("another process could not take the released lock: %v\n%s", err, out)
	}
}

// other runs TestLockHelper in a process of its own, trying dir's lock.
func other(dir string) (string, error) {
	cmd := testenv.Self("-test.run=^TestLockHelper$")
	cmd.Env = append(os.Environ(), "FLOCK_HELPER_DIR="+dir)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestLockHelper is the other process of TestDirExcludesOtherProcesses;
// run by itself it has nothing to do.
func TestLockHelper(t *testing.T) {
	dir := os.Getenv("FLOCK_HELPER_DIR")
	if dir == "" {
		return
	}
	unlock, err := Dir(dir, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}
