//go:build windows

package proc_test

import (
	"testing"

	"golang.org/x/sys/windows"

	"github.com/tandemhq/tandem/internal/proc"
)

// waitGone waits, on the process's own handle, until pid has exited.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return // no such process any more
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, 10_000)
	if err != nil || ev != windows.WAIT_OBJECT_0 {
		t.Fatalf("grandchild %d still runs after its tree was ended (wait: %d, %v)", pid, ev, err)
	}
}

func TestExitSignalIsEmpty(t *testing.T) {
	// No signals on Windows: a killed command reports only its exit code.
	if s := proc.ExitSignal(nil); s != "" {
		t.Fatalf("ExitSignal = %q", s)
	}
}
