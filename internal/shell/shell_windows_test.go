//go:build windows

package shell_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/internal/shell"
)

// Without PowerShell on PATH, scripts run in cmd, quotes and all: cmd
// reads its command line itself, so Go's argument quoting must not reach
// it. (Setting PATH is the way to force this path: it is also what a
// Windows without PowerShell looks like.)
func TestCmdRunsScriptVerbatim(t *testing.T) {
	t.Setenv("PATH", filepath.Join(os.Getenv("SystemRoot"), "System32"))
	if argv := shell.Argv("x"); argv[0] != "cmd.exe" {
		t.Fatalf("Argv = %q, want cmd.exe with PowerShell off PATH", argv)
	}
	if out, code := run(t, "echo tandem-shell"); code != 0 || !strings.Contains(out, "tandem-shell") {
		t.Errorf("echo: code %d, output %q", code, out)
	}
	if out, code := run(t, `echo "a b" & exit 3`); code != 3 || strings.TrimSpace(out) != `"a b"` {
		t.Errorf(`echo "a b" & exit 3: code %d, output %q; want 3 and "a b" quoted`, code, out)
	}
}
