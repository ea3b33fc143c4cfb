//go:build !windows

// Unix only: these tests drive commands through sh, and Windows has no
// kernel sandbox in this release (agent/sandbox); run_windows_test.go
// holds the Windows counterparts of the process-tree checks.

package local

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/command"
	"github.com/tandemhq/tandem/agent/sandbox"
)

// sandboxHelper is the sandbox helper for tests (this test binary, whose
// TestMain serves as it); it fails the test where Landlock is missing.
func sandboxHelper(t *testing.T) string {
	t.Helper()
	if ok, why := sandbox.Available(); !ok {
		t.Fatalf("Landlock unavailable: %s", why)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// sandboxed runs script in dir under settings (the test binary is the
// helper) and returns its output and exit code.
func sandboxed(t *testing.T, s sandbox.Settings, dir, script string) (string, int) {
	t.Helper()
	s.Helper = sandboxHelper(t)
	res, err := Runner{Sandbox: s}.Run(context.Background(), command.Spec{Command: script, Dir: dir, Timeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return res.Output, res.ExitCode
}

func workspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"AGENTS.md":             "be careful\n",
		".git/hooks/pre-commit": "#!/bin/sh\n",
		".git/config":           "[core]\n",
		".vscode/tasks.json":    "{}\n",
		"proj.code-workspace":   "{}\n",
		"go.mod":                "module example.com/w\n\ngo 1.22\n",
		"w.go":                  "package w\n\nfunc Two() int { return 2 }\n",
		"w_test.go":             "package w\n\nimport \"testing\"\n\nfunc TestTwo(t *testing.T) {\n\tif Two() != 2 {\n\t\tt.Fatal(\"two\")\n\t}\n}\n",
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestSandboxBuildsAndTestsGo(t *testing.T) {
	dir := workspace(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	// A cache kept across runs (in the temp directory, which the sandbox
	// lets commands write): compiling the standard library from nothing
	// on every run takes minutes on a busy two-core machine.
	cache := filepath.Join(os.TempDir(), "tandem-test-gocache")
	script := "export GOCACHE=" + cache + " GOFLAGS=-mod=mod GOTOOLCHAIN=local; " + goBin + " build ./... && " + goBin + " test ./... && echo built > out.txt"
	out, code := sandboxed(t, sandbox.Settings{}, dir, script)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "out.txt")); string(b) != "built\n" {
		t.Errorf("workspace write = %q", b)
	}
}

// Each protected or outside path refuses a write from a workspace-write
// command, and stays as it was.
func TestSandboxRefusesWrites(t *testing.T) {
	dir := workspace(t)
	outside, err := os.MkdirTemp(filepath.Dir(os.Getenv("HOME")+"/x"), ".tandem-sandbox-test-")
	if err != nil {
		outside = "/var/tmp"
	}
	defer os.RemoveAll(outside)
	targets := []string{
		filepath.Join(outside, "escaped"),
		filepath.Join(dir, ".git/hooks/pre-commit"),
		filepath.Join(dir, ".git/hooks/post-checkout"),
		filepath.Join(dir, ".git/config"),
		filepath.Join(dir, "AGENTS.md"),
		filepath.Join(dir, ".vscode/tasks.json"),
		filepath.Join(dir, "proj.code-workspace"),
	}
	for _, target := range targets {
		t.Run(filepath.Base(target), func(t *testing.T) {
			before, _ := os.ReadFile(target)
			out, code := sandboxed(t, sandbox.Settings{}, dir, "echo pwned > '"+target+"'")
			if code == 0 {
				t.Fatalf("the write succeeded: %q", out)
			}
			if after, _ := os.ReadFile(target); string(after) != string(before) {
				t.Errorf("%s changed to %q", target, after)
			}
			if !strings.Contains(out, "denied") && !strings.Contains(out, "Read-only") {
				t.Errorf("output %q does not say why", out)
			}
		})
	}
	// Read-only mode refuses the workspace itself (one outside the temp
	// directory, which stays writable).
	if out, code := sandboxed(t, sandbox.Settings{Mode: sandbox.ModeReadOnly}, outside, "echo x > new.txt"); code == 0 {
		t.Errorf("read-only mode let a workspace write through: %q", out)
	}
	// Mode off confines nothing but still runs.
	if out, code := sandboxed(t, sandbox.Settings{Mode: sandbox.ModeOff}, dir, "echo x >> AGENTS.md"); code != 0 {
		t.Errorf("mode off: exit %d %q", code, out)
	}
}

func TestSandboxNetworkDeny(t *testing.T) {
	if sandbox.LandlockABI() < 4 {
		t.Fatalf("Landlock ABI %d < 4: no network rules on this kernel", sandbox.LandlockABI())
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello\n"))
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	dial := "bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + port + " && head -1 <&3'"
	dir := t.TempDir()
	if out, code := sandboxed(t, sandbox.Settings{}, dir, dial); code != 0 || out != "hello\n" {
		t.Fatalf("network allowed: exit %d %q", code, out)
	}
	out, code := sandboxed(t, sandbox.Settings{Network: "deny"}, dir, dial)
	if code == 0 || strings.Contains(out, "hello") {
		t.Fatalf("network deny: connected: exit %d %q", code, out)
	}
}

// A command killed by a signal under the helper is reported with the
// signal's name, which only the helper's status pipe carries.
func TestSandboxReportsSignal(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Runner{Sandbox: sandbox.Settings{Helper: exe}}.Run(context.Background(),
		command.Spec{Command: "echo before; kill -9 $$", Dir: t.TempDir(), Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if res.Signal != "killed" || res.ExitCode != -1 || res.Output != "before\n" {
		t.Fatalf("got %+v, want killed", res)
	}
}

// Hidden entries read as empty: a directory as an empty one, a file as
// /dev/null; the files beside them stay readable.
func TestSandboxHides(t *testing.T) {
	home := t.TempDir()
	for name, body := range map[string]string{"sessions/s1.jsonl": "conversation", "config.json": "sk-key", "plugins/p.txt": "visible"} {
		p := filepath.Join(home, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := sandbox.Settings{Hidden: []string{filepath.Join(home, "sessions"), filepath.Join(home, "config.json")}}
	out, code := sandboxed(t, s, t.TempDir(), "ls -A "+home+"/sessions; cat "+home+"/config.json; cat "+home+"/plugins/p.txt")
	if code != 0 || out != "visible" {
		t.Fatalf("exit %d, output %q; want only the visible file's text", code, out)
	}
}

// A protected name that is a symlink protects its target when the target
// is inside the workspace, and a dangling one does not stop the command.
func TestSandboxProtectsSymlinkedEntries(t *testing.T) {
	dir := workspace(t)
	if err := os.WriteFile(filepath.Join(dir, "real-agents.md"), []byte("rules\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "AGENTS.md"))
	if err := os.Symlink("real-agents.md", filepath.Join(dir, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("missing", filepath.Join(dir, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	if out, code := sandboxed(t, sandbox.Settings{}, dir, "echo pwned > AGENTS.md"); code == 0 {
		t.Fatalf("write through the link succeeded: %q", out)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "real-agents.md")); string(b) != "rules\n" {
		t.Errorf("target changed to %q", b)
	}
}
