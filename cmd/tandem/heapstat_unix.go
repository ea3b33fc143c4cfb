//go:build unix

package main

import (
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
)

// heapOnSignal, when on (TANDEM_HEAPSTAT), reports the live heap at once
// (saying it answers the signal) and then on each SIGUSR1 (heapStat),
// until the returned stop is called. With a profile path
// (TANDEM_MEMPROFILE) every allocation is sampled, so that a turn's few
// KiB do not fall between samples; that slows tandem down, so it is for
// looking, not timing.
func heapOnSignal(on bool, profile string, w io.Writer) (stop func()) {
	if !on {
		return func() {}
	}
	if profile != "" {
		runtime.MemProfileRate = 1
	}
	c := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(c, syscall.SIGUSR1)
	heapStat(0, "", w)
	go func() {
		defer close(done)
		n := 0
		for range c {
			n++
			heapStat(n, profile, w)
		}
	}()
	return func() {
		signal.Stop(c)
		close(c)
		<-done
	}
}
