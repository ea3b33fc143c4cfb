package local

import (
	"fmt"
	"os"
	"testing"

	"github.com/tandemhq/tandem/agent/sandbox"
	"github.com/tandemhq/tandem/internal/testenv"
)

// TestMain lets the test binary serve as the sandbox helper, the part
// tandem's own main plays in production, and runs every test with the
// default sandbox (workspace-write, network allowed) around Run. Under an
// emulator (qemu-user without binfmt_misc) the kernel cannot start the
// test binary as a helper, so Run's tests go without one there: a plain
// process tree, as for a library caller; the sandbox's own tests stay
// pending under the emulator (internal/release).
func TestMain(m *testing.M) {
	sandbox.Main()
	testHelper()
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if os.Getenv(testenv.EmulatorEnv) == "" {
		os.Setenv(sandbox.SettingsEnv, sandbox.Settings{Helper: exe}.Encode())
	}
	os.Exit(m.Run())
}
