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

func TestFifoLog(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log")
	log := FifoLog(t, p)
	if err := exec.Command("sh", "-c", "echo one > "+p).Run(); err != nil {
		t.Fatal(err)
	}
	if got := log.String(); got != "one\n" { // written before Run returned: there at once
		t.Fatalf("log %q", got)
	}
	later := exec.Command("sh", "-c", "echo two > "+p)
	if err := later.Start(); err != nil {
		t.Fatal(err)
	}
	defer later.Wait()
	if !log.Await(10*time.Second, "two") || log.String() != "one\ntwo\n" {
		t.Fatalf("log %q", log.String())
	}
}
