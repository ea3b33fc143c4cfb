//go:build unix

package proc_test

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/proc"
	"github.com/tandemhq/tandem/internal/testenv"
)

// waitGone waits until pid no longer runs, on its exit (a pidfd: a
// process not ours to wait for still has an exit event on Linux). A
// zombie (dead, not yet reaped by its new parent) counts as gone.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	if !testenv.WaitExited(pid, 10*time.Second) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("grandchild %d still runs after its tree was ended", pid)
	}
}

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
