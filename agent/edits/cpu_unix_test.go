//go:build unix

package edits

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU adds a cpu-ns/op metric: the process's CPU time per operation.
// On a shared machine wall-clock ns/op includes time spent waiting for a
// core; CPU time does not, so it is the number to compare with goals.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
