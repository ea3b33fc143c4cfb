package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestUnguardedCreated(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".git/hooks"), 0o755)
	os.WriteFile(filepath.Join(root, "AGENTS.md"), nil, 0o644)
	os.WriteFile(filepath.Join(root, "old.code-workspace"), nil, 0o644)
	// Old enough not to count as made during the command: a ctime cannot
	// be set back, so the clock must move (the age is under test, not
	// something polled for).
	time.Sleep(2 * ctimeSlack)
	u := Snapshot([]string{root})
	if got := u.Created(); len(got) != 0 {
		t.Fatalf("nothing changed, yet Created = %q", got)
	}
	for _, p := range []string{"CLAUDE.md", ".git/config", "new.code-workspace", "plain.txt"} {
		os.WriteFile(filepath.Join(root, p), nil, 0o644)
	}
	os.Mkdir(filepath.Join(root, ".tandem"), 0o755)
	want := []string{filepath.Join(root, ".git/config"), filepath.Join(root, ".tandem"), filepath.Join(root, "CLAUDE.md"), filepath.Join(root, "new.code-workspace")}
	if got := u.Created(); !slices.Equal(got, want) {
		t.Errorf("Created = %q, want %q", got, want)
	}
}

// BenchmarkUnguarded is what reporting created protected entries adds to a
// command: a Snapshot before and Created after, in a root of 300 entries
// with none of the protected ones (the most lstat calls), unchanged.
func BenchmarkUnguarded(b *testing.B) {
	root := b.TempDir()
	for i := range 300 {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("f%03d.go", i)), nil, 0o644)
	}
	for b.Loop() {
		_ = Snapshot([]string{root}).Created()
	}
}
