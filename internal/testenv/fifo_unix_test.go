//go:build unix

package testenv

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func TestFifoLines(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	lines := FifoLines(t, p)
	if err := exec.Command("sh", "-c", "echo one > "+p+"; echo two > "+p).Run(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"one", "two"} {
		select {
		case got := <-lines:
			if got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no %q", want)
		}
	}
}
