package local

import (
	"fmt"
	"os"
	"testing"

	"github.com/tandemhq/tandem/agent/sandbox"
)

// TestMain lets the test binary serve as the sandbox helper, the part
// tandem's own main plays in production, and runs every test with the
// default sandbox (workspace-write, network allowed) around Run.
func TestMain(m *testing.M) {
	sandbox.Main()
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(sandbox.SettingsEnv, sandbox.Settings{Helper: exe}.Encode())
	os.Exit(m.Run())
}
