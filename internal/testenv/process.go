package testenv

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// ModelEnv is this process's environment plus what points a tandem child
// at the fake model server (llmtest) listening at anthropicURL, with home
// as its TANDEM_HOME. Later entries win in exec, so a real key or provider
// in the developer's environment cannot leak into a test run.
func ModelEnv(home, anthropicURL string) []string {
	return append(os.Environ(),
		"TANDEM_HOME="+home,
		"TANDEM_PROVIDER=anthropic",
		"ANTHROPIC_API_KEY=test",
		"ANTHROPIC_BASE_URL="+anthropicURL,
	)
}

// SyncBuffer collects a child process's output (its stderr, say) while the
// test reads it from another goroutine, or waits for it to say something.
type SyncBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changes Changes
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	n, err := s.b.Write(p)
	s.mu.Unlock()
	s.changes.Changed()
	return n, err
}

// Await reports whether what was written comes to contain want, checking
// at each write; d only bounds a failure.
func (s *SyncBuffer) Await(d time.Duration, want string) bool {
	return s.changes.Wait(d, func() bool { return strings.Contains(s.String(), want) })
}

// String is everything written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Start starts cmd with pipes to its stdin and stdout, its stderr going to
// stderr (nil discards it), and stops the test if any of that fails.
func Start(t testing.TB, cmd *exec.Cmd, stderr io.Writer) (stdin io.WriteCloser, stdout io.ReadCloser) {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err = cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return stdin, stdout
}

// ErrNoExit is WaitExit's answer for a process that outlived its time.
var ErrNoExit = errors.New("the process did not exit in time and was killed")

// WaitExit waits up to d for a started cmd to exit and returns Wait's
// error; a process still running then is killed and reaped, and the answer
// is ErrNoExit.
func WaitExit(cmd *exec.Cmd, d time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		_ = cmd.Process.Kill()
		<-done
		return ErrNoExit
	}
}
