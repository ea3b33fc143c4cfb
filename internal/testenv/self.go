package testenv

import (
	"os"
	"os/exec"
)

// EmulatorEnv names the emulator a cross-built test binary runs under
// where the kernel would not start a foreign binary by itself (qemu-user
// without binfmt_misc, as here): internal/release's emulated runs set it.
const EmulatorEnv = "TANDEM_TEST_EMULATOR"

// Self is the running test binary as a command, for tests that are their
// own child process. Under an emulator (EmulatorEnv) the emulator runs it,
// as binfmt_misc would.
func Self(args ...string) *exec.Cmd {
	if emu := os.Getenv(EmulatorEnv); emu != "" {
		return exec.Command(emu, append([]string{os.Args[0]}, args...)...)
	}
	return exec.Command(os.Args[0], args...)
}
