package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
)

// heapStat collects garbage and writes the live heap's size to w as
// "tandem: live heap N bytes", and, when profile is set, the heap profile
// to profile-N.pprof (the n-th asked for). A long session's resident size
// holds the collector's headroom besides what the session keeps; this is
// what it keeps (bench/editorbench's turns read both). It collects
// twice: what a sync.Pool holds (the providers' stream readers) outlives
// one collection as the pool's victims and goes with the second, so after
// one the count depends on whether a turn just returned a reader.
func heapStat(n int, profile string, w io.Writer) {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if profile != "" {
		path := fmt.Sprintf("%s-%d.pprof", profile, n)
		startProfile("TANDEM_MEMPROFILE", path, pprof.WriteHeapProfile, func() {})()
	}
	fmt.Fprintf(w, "tandem: live heap %d bytes\n", s[0].Value.Uint64())
}
