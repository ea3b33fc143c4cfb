package proc

import (
	"os"
	"syscall"
)

// Shutdown is the signals that ask tandem to shut down cleanly: Ctrl-C and
// SIGTERM on Unix; on Windows the Go runtime delivers Ctrl-C and Ctrl-Break
// as os.Interrupt and a console's close, logoff and shutdown as SIGTERM.
func Shutdown() []os.Signal { return []os.Signal{os.Interrupt, syscall.SIGTERM} }
