package local

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tandemhq/tandem/agent/edits"
	"github.com/tandemhq/tandem/agent/hosttest"
	"github.com/tandemhq/tandem/internal/testenv"
)

func tempRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(testenv.TempDir(t))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestConformance(t *testing.T) {
	root := tempRoot(t)
	hosttest.Run(t, hosttest.Harness{Host: Host{Root: root}, Root: root, Outside: tempRoot(t)})
}

func TestApplyEditKeepsModeAndLeavesNoTemp(t *testing.T) {
	dir := tempRoot(t)
	p := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(p, []byte("old\n"), 0o751); err != nil {
		t.Fatal(err)
	}
	res, err := Host{Root: dir}.ApplyEdit(context.Background(), edits.FileEdit{Path: p, Old: "old\n", New: "new\n"})
	if err != nil || !res.Applied {
		t.Fatalf("ApplyEdit = %+v, %v", res, err)
	}
	// On Windows only the read-only flag is kept: writable stays writable.
	want := testenv.Perm(0o751)
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != want {
		t.Fatalf("mode after the edit: %v %v, want %v", fi.Mode().Perm(), err, want)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d entries after the edit, want run.sh alone (a temp file left?)", len(entries))
	}
}

// A symlink inside the root that points out of it does not carry a write
// out: os.Root refuses it even though the path is spelled inside.
func TestApplyEditSymlinkOut(t *testing.T) {
	root, outside := tempRoot(t), tempRoot(t)
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	res, err := Host{Root: root}.ApplyEdit(context.Background(), edits.FileEdit{Path: filepath.Join(root, "out", "x.txt"), New: "x", Create: true})
	if err == nil && res.Applied {
		t.Fatal("a write through a symlink out of the root was applied")
	}
	if _, err := os.Stat(filepath.Join(outside, "x.txt")); err == nil {
		t.Fatal("the file was written outside the root")
	}
}
