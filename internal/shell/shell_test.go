package shell_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/internal/shell"
)

// run runs script in the platform's shell. Scripts here use only what sh,
// PowerShell and cmd share (echo, exit), so the test means the same on
// each.
func run(t *testing.T, script string) (string, int) {
	t.Helper()
	c := shell.Exec(script)
	out, err := c.Output()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	}
	t.Fatalf("%s %q: %v", c.Path, c.Args, err)
	return "", -1
}

func TestCommandRunsScript(t *testing.T) {
	if out, code := run(t, "echo tandem-shell"); code != 0 || !strings.Contains(out, "tandem-shell") {
		t.Fatalf("echo: code %d, output %q", code, out)
	}
}

func TestCommandReportsExitCode(t *testing.T) {
	if _, code := run(t, "exit 3"); code != 3 {
		t.Fatalf("exit 3 came back as %d", code)
	}
}
