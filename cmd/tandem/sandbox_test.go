//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/internal/testenv"
)

// Killing tandem with -9 mid-command must not leave the command's tree
// running, a setsid daemon included: the command's PID namespace dies with
// the helper, which dies with tandem.
func TestKill9OfTandemLeavesNothing(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	ready := filepath.Join(work, "ready.fifo")
	started := testenv.FifoLines(t, ready)
	mark := "TANDEM_KILL9_MARK=" + filepath.Base(filepath.Dir(work)) + filepath.Base(work)
	// The shell, a setsid daemon and a double-forked child each say they
	// run (the mark in their environment) before the kill.
	script := "export " + mark + "; setsid sh -c 'echo daemon > " + ready + "; exec sleep 300' >/dev/null 2>&1 </dev/null & " +
		"(sh -c 'echo forked > " + ready + "; exec sleep 300' >/dev/null 2>&1 &); echo shell > " + ready + "; sleep 300"
	args, _ := jsonString(script)
	srv.Enqueue(llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "c", Name: "run_command", Args: `{"command":` + args + `}`}}})
	cmd := exec.Command(testenv.Tandem(t), "run", "--cwd", work, "--yes", "go")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TANDEM_HOME=" + home,
		"ANTHROPIC_API_KEY=secret-test-key", "ANTHROPIC_BASE_URL=" + srv.BaseURL(llmtest.Anthropic)}
	var errb testenv.SyncBuffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	for range 3 {
		select {
		case <-started:
		case <-time.After(20 * time.Second):
			t.Fatalf("the command never ran; stderr:\n%s", errb.String())
		}
	}
	if n := len(testenv.Marked(mark)); n < 3 {
		t.Fatalf("%d marked processes before the kill, want the shell, the daemon and the double fork", n)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	testenv.WaitNoProcess(t, mark, 3*time.Second)
}

func jsonString(s string) (string, error) {
	return strconv.Quote(s), nil // the script has no characters where Go and JSON quoting differ
}

// tandem marks itself non-dumpable: a process of the same user cannot read
// its environment (the provider key) from /proc, while it can read an
// ordinary process's. Both run as nobody so root's capabilities do not
// blur the check.
func TestTandemEnvironUnreadable(t *testing.T) {
	uid := os.Getuid()
	var cred *syscall.Credential
	dir := t.TempDir()
	bin := testenv.Tandem(t)
	if uid == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		dir, _ = os.MkdirTemp("", "tandem-dump-")
		defer os.RemoveAll(dir)
		os.Chmod(dir, 0o755)
		os.Chown(dir, 65534, 65534) // nobody's TANDEM_HOME
		data, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(dir, "tandem")
		if err := os.WriteFile(bin, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	start := func(name string, args ...string) (*exec.Cmd, *testenv.Peer) {
		c := exec.Command(name, args...)
		c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TANDEM_HOME=" + dir, "ANTHROPIC_API_KEY=sk-dump-secret"}
		c.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		stdin, stdout := testenv.Start(t, c, nil) // stdin held open: tandem acp waits on it
		t.Cleanup(func() { stdin.Close(); c.Process.Kill(); c.Wait() })
		return c, testenv.NewPeer(t, stdout, stdin, testenv.Lines, nil)
	}
	read := func(pid int) (string, error) {
		c := exec.Command("cat", "/proc/"+strconv.Itoa(pid)+"/environ")
		c.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		out, err := c.CombinedOutput()
		return string(out), err
	}
	ordinary, _ := start("sleep", "30")
	td, peer := start(bin, "acp")
	// Answered: main is past its first lines.
	if err := peer.Call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if out, err := read(ordinary.Process.Pid); err != nil || !strings.Contains(out, "sk-dump-secret") {
		t.Fatalf("control: an ordinary process's environ: %v %q", err, out)
	}
	out, err := read(td.Process.Pid)
	if err == nil || strings.Contains(out, "sk-dump-secret") || !strings.Contains(out, "Permission denied") {
		t.Fatalf("tandem's environ: %v %q, want permission denied", err, out)
	}
	if !slices.Contains(testenv.Marked("sk-dump-secret"), td.Process.Pid) { // still running
		t.Fatal("tandem was not running during the check")
	}
}
