//go:build !windows

// Unix only: these tests drive commands through sh, and Windows has no
// kernel sandbox in this release (agent/sandbox); run_windows_test.go
// holds the Windows counterparts of the process-tree checks.

package local

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/sandbox"
)

func runSandboxed(t *testing.T, spec command.Spec) command.Result {
	t.Helper()
	if ok, why := sandbox.Available(); !ok {
		t.Fatalf("Landlock unavailable: %s", why)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	spec.Timeout = time.Minute
	res, err := Runner{Sandbox: sandbox.Settings{Helper: exe}}.Run(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A protected entry missing when a command starts cannot be bound
// read-only, so the command can create it; the result names every such
// entry it created, and nothing it did not.
func TestSandboxReportsCreatedProtectedEntries(t *testing.T) {
	dir := workspace(t)
	os.Remove(filepath.Join(dir, "AGENTS.md"))
	os.RemoveAll(filepath.Join(dir, ".vscode"))
	// Files made within a clock tick of the command count as its own; a
	// ctime cannot be set back, so the clock must move (the age is under
	// test, not something polled for).
	time.Sleep(50 * time.Millisecond)
	res := runSandboxed(t, command.Spec{Dir: dir,
		Command: "echo obey > AGENTS.md && mkdir .vscode && echo '{}' > .vscode/tasks.json && echo '{}' > new.code-workspace && echo fine > notes.txt"})
	if res.ExitCode != 0 {
		t.Fatalf("exit %d: %s", res.ExitCode, res.Output)
	}
	want := []string{filepath.Join(dir, ".vscode"), filepath.Join(dir, "AGENTS.md"), filepath.Join(dir, "new.code-workspace")}
	if !slices.Equal(res.Created, want) {
		t.Errorf("created %q, want %q", res.Created, want)
	}
	// Once they exist they are protected like the others.
	res = runSandboxed(t, command.Spec{Dir: dir, Command: "echo again > AGENTS.md"})
	if res.ExitCode == 0 || len(res.Created) != 0 {
		t.Errorf("the second write: exit %d, created %q", res.ExitCode, res.Created)
	}
}

// The session's other roots keep their protected entries read-only too,
// not just the working directory's.
func TestSandboxProtectsExtraRoots(t *testing.T) {
	dir, other := workspace(t), workspace(t)
	hook := filepath.Join(other, ".git/hooks/pre-commit")
	res := runSandboxed(t, command.Spec{Dir: dir, Roots: []string{other},
		Command: "echo ok > '" + filepath.Join(other, "plain.txt") + "' && echo evil > '" + hook + "'"})
	if res.ExitCode == 0 || res.Blocked == "" {
		t.Errorf("the hook write in the other root: exit %d, blocked %q: %s", res.ExitCode, res.Blocked, res.Output)
	}
	if b, _ := os.ReadFile(hook); string(b) != "#!/bin/sh\n" {
		t.Errorf("the other root's hook changed: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(other, "plain.txt")); string(b) != "ok\n" {
		t.Errorf("the other root is not writable: %q", b)
	}
}
