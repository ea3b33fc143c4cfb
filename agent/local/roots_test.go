//go:build !windows

// Unix only: these tests drive commands through sh, and Windows has no
// kernel sandbox in this release (agent/sandbox); run_windows_test.go
// holds the Windows counterparts of the process-tree checks.

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

// A command may write the session's additional roots (Spec.Roots) as it
// may write its working directory, and nothing else outside it; in
// read-only mode the additional roots stay read-only too.
func TestSandboxWritesAdditionalRoots(t *testing.T) {
	exe, dir, second := twoRoots(t)
	target := filepath.Join(second, "made.txt")
	run := func(mode string, roots []string) int {
		res, err := Runner{Sandbox: sandbox.Settings{Helper: exe, Mode: mode}}.Run(context.Background(),
			command.Spec{Command: "echo hi > '" + target + "'", Dir: dir, Roots: roots, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		return res.ExitCode
	}
	if code := run("", nil); code == 0 {
		t.Fatalf("a write outside every root succeeded")
	}
	if code := run(sandbox.ModeReadOnly, []string{second}); code == 0 {
		t.Errorf("read-only mode let a write to an additional root through")
	}
	if code := run("", []string{second}); code != 0 {
		t.Fatalf("a write to an additional root failed: exit %d", code)
	}
	if data, _ := os.ReadFile(target); string(data) != "hi\n" {
		t.Errorf("the additional root's file holds %q", data)
	}
}

// An additional root's protected entries stay read-only inside the
// sandbox, as the working directory's do, while its other files are
// writable.
func TestSandboxProtectsAdditionalRoots(t *testing.T) {
	exe, dir, second := twoRoots(t)
	for name, body := range map[string]string{"AGENTS.md": "be careful\n", ".git/hooks/pre-commit": "#!/bin/sh\n", "main.go": "package main\n"} {
		p := filepath.Join(second, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(script string) int {
		res, err := Runner{Sandbox: sandbox.Settings{Helper: exe}}.Run(context.Background(),
			command.Spec{Command: script, Dir: dir, Roots: []string{second}, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		return res.ExitCode
	}
	for _, rel := range []string{".git/hooks/x", "AGENTS.md"} {
		if code := run("echo evil > '" + filepath.Join(second, rel) + "'"); code == 0 {
			t.Errorf("a sandboxed command wrote the additional root's %s", rel)
		}
	}
	if _, err := os.Stat(filepath.Join(second, ".git/hooks/x")); err == nil {
		t.Errorf(".git/hooks/x exists in the additional root")
	}
	if data, _ := os.ReadFile(filepath.Join(second, "AGENTS.md")); string(data) != "be careful\n" {
		t.Errorf("the additional root's AGENTS.md holds %q", data)
	}
	if code := run("echo ok >> '" + filepath.Join(second, "main.go") + "'"); code != 0 {
		t.Errorf("writing an ordinary file of the additional root failed: exit %d", code)
	}
}

// twoRoots returns the sandbox helper (this test binary), a workspace and
// an empty second root outside the temp directory, which the sandbox
// leaves writable.
func twoRoots(t *testing.T) (exe, dir, second string) {
	t.Helper()
	exe = sandboxHelper(t)
	second, err := os.MkdirTemp(os.Getenv("HOME"), ".tandem-roots-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(second) })
	return exe, workspace(t), second
}

// When the sandbox refuses a command of a two-root session, the note the
// model reads names both roots as writable, so it does not conclude that
// the second root is off limits; in read-only mode it names neither.
func TestBlockedNamesEveryRoot(t *testing.T) {
	exe, dir, second := twoRoots(t)
	outside := filepath.Join(os.Getenv("HOME"), ".tandem-roots-test-blocked")
	t.Cleanup(func() { os.Remove(outside) })
	run := func(mode string) command.Result {
		res, err := Runner{Sandbox: sandbox.Settings{Helper: exe, Mode: mode}}.Run(context.Background(),
			command.Spec{Command: "echo hi > '" + outside + "'", Dir: dir, Roots: []string{second}, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := run("")
	if res.ExitCode == 0 || !strings.Contains(res.Blocked, "sandbox seems to have blocked") {
		t.Fatalf("write outside the roots: exit %d, Blocked %q, output %q", res.ExitCode, res.Blocked, res.Output)
	}
	if !strings.Contains(res.Blocked, "roots ("+dir+", "+second+";") {
		t.Errorf("the note does not name both roots as writable: %q", res.Blocked)
	}
	res = run(sandbox.ModeReadOnly)
	if !strings.Contains(res.Blocked, "read-only") || strings.Contains(res.Blocked, second) {
		t.Errorf("read-only note: %q", res.Blocked)
	}
}
