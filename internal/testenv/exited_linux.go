package testenv

import (
	"errors"
	"time"

	"golang.org/x/sys/unix"
)

// WaitExited waits until process pid has ended (a zombie counts as ended:
// only its parent can reap it) and reports false if it still runs after d,
// which only bounds a failure. It waits on the process's exit itself, a
// pidfd turning readable, so it also works for processes that are not the
// caller's children.
func WaitExited(pid int, d time.Duration) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	switch {
	case errors.Is(err, unix.ESRCH):
		return true // gone already
	case err != nil:
		return pollExited(pid, d) // no pidfds here (an old kernel, qemu-user)
	}
	defer unix.Close(fd)
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(left.Milliseconds())+1)
		switch {
		case errors.Is(err, unix.EINTR):
			continue // a signal, not the exit: wait again
		case err != nil:
			return !Alive(pid)
		case n > 0:
			return true
		}
	}
}
