//go:build unix

package proc

import (
	"syscall"
	"time"
)

// SelfUsage is the CPU time (user and system) this process has used so
// far, and how often it gave up the CPU of its own accord (sleeps: a
// measure of how much a hot path waits).
func SelfUsage() (cpu time.Duration, sleeps int64) {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), int64(ru.Nvcsw)
}
