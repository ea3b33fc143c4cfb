package sandbox

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// statusFD is the descriptor on which the helper tells the runner which
// signal ended the command: an exit status alone cannot say it.
const statusFD = 3

// initProcess runs argv as the namespace's only direct child, reaps every
// orphan that lands on it, and exits with the child's status once the
// child is gone. Signals the runner sends to the process group reach the
// child directly; the init catches them and waits for the child.
func initProcess(argv []string) error {
	// Handled, not ignored: an ignored disposition would pass to the child.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)
	// The status descriptor is not for the command: a daemon holding it
	// would keep the runner's read waiting.
	unix.CloseOnExec(statusFD)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	status := os.NewFile(statusFD, "status")
	child := cmd.Process.Pid
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, 0, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			os.Exit(126)
		}
		if pid != child {
			continue // an orphan, reaped
		}
		if ws.Signaled() {
			if status != nil {
				_, _ = status.WriteString(ws.Signal().String())
			}
			os.Exit(128 + int(ws.Signal()))
		}
		os.Exit(ws.ExitStatus())
	}
}
