//go:build !windows

// Unix only: Windows has no kernel sandbox in this release to refuse a
// write (agent/sandbox).

package local

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/sandbox"
)

// A write the sandbox refuses is reported as blocked, with what commands
// may do; the same command run unsandboxed (what the user approves after
// such a report) goes through.
func TestBlockedAndUnsandboxedRerun(t *testing.T) {
	dir := workspace(t)
	exe, _ := os.Executable()
	r := Runner{Sandbox: sandbox.Settings{Helper: exe}}
	hook := filepath.Join(dir, ".git", "hooks", "pre-commit")
	spec := command.Spec{Command: "echo evil > " + hook, Dir: dir, Timeout: time.Minute}
	res, err := r.Run(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode == 0 || !strings.Contains(res.Blocked, "sandbox seems to have blocked") || !strings.Contains(res.Blocked, "read-only") {
		t.Fatalf("blocked write: exit %d, Blocked %q, output %q", res.ExitCode, res.Blocked, res.Output)
	}
	if b, _ := os.ReadFile(hook); string(b) != "#!/bin/sh\n" {
		t.Fatalf("the hook changed: %q", b)
	}
	spec.Unsandboxed = true
	res, err = r.Run(context.Background(), spec)
	if err != nil || res.ExitCode != 0 || res.Blocked != "" {
		t.Fatalf("unsandboxed rerun: %+v, %v", res, err)
	}
	if b, _ := os.ReadFile(hook); string(b) != "evil\n" {
		t.Errorf("the approved unsandboxed write did not land: %q", b)
	}
	// A failure that is not a refusal is not blamed on the sandbox.
	res, _ = r.Run(context.Background(), command.Spec{Command: "echo nope; exit 3", Dir: dir, Timeout: time.Minute})
	if res.ExitCode != 3 || res.Blocked != "" {
		t.Errorf("plain failure: %+v", res)
	}
}
