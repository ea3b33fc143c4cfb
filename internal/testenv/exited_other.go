//go:build !linux

package testenv

import "time"

// WaitExited waits until process pid has ended and reports false if it
// still runs after d. Without pidfds (macOS, Windows: the tests that use
// it run on Linux) it checks every 10 ms.
func WaitExited(pid int, d time.Duration) bool { return pollExited(pid, d) }
