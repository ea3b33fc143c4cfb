//go:build unix

package proc_test

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/proc"
)

// waitGone waits until pid no longer runs: a process not ours to wait for
// has no exit event on Unix, so it is polled, within a deadline. A zombie
// (dead, not yet reaped by its new parent) counts as gone.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) || zombie(pid) {
			return
		}
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("grandchild %d still runs after its tree was ended", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == ')' {
			return i+2 < len(b) && b[i+2] == 'Z'
		}
	}
	return false
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestTerminateSignalsTheGroup(t *testing.T) {
	cmd := exec.Command("sh", "-c", "exec sleep 60")
	tree, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	if err := tree.Terminate(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if got := proc.ExitSignal(cmd.ProcessState); got != syscall.SIGTERM.String() {
		t.Fatalf("ExitSignal = %q, want %q", got, syscall.SIGTERM.String())
	}
}

func TestGroupKeepsOtherAttributes(t *testing.T) {
	cmd := exec.Command("true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: false, Foreground: false, Noctty: true}
	proc.Group(cmd)
	if !cmd.SysProcAttr.Setpgid || !cmd.SysProcAttr.Noctty {
		t.Fatalf("Group lost an attribute or set none: %+v", cmd.SysProcAttr)
	}
}
