package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// heapFloor is the heap goal tandem keeps at least, unless GOGC is set.
//
// Go starts a collection once the heap has doubled its live part, or at
// 4 MiB, whichever is more. tandem's live heap is a few MiB and a turn
// of tool steps allocates about as much, so a turn ran one or two cycles,
// each taking one of the user's cores for a dedicated mark worker in the
// middle of the turn, plus assists and write barriers: on a two-core
// machine 0.1–0.15 ms of every tool step (bench/editorbench, against the
// same build without the floor). A floor of 16 MiB lets a session with a
// small heap run its turns without a cycle, at the cost of at most that
// much memory; a session whose live heap is past half the floor is
// collected as Go's default would.
const heapFloor = 16 << 20

// goHeapMinimum is the runtime's own minimum heap goal at GOGC=100; it
// scales with GOGC.
const goHeapMinimum = 4 << 20

// floorPercent is the GOGC that puts the next heap goal at floor for a
// live heap of live bytes, never below Go's default of 100 (a large heap
// is collected as usual) nor above the percentage whose scaled minimum is
// floor (a tiny heap would otherwise have a goal of many times floor).
// A live of 0 (no collection yet) gets the latter: the goal is then floor.
func floorPercent(live, floor uint64) int {
	most := int(100 * floor / goHeapMinimum)
	switch {
	case live == 0:
		return most
	case live >= floor/2:
		return 100
	}
	return min(max(int(100*(floor-live)/live), 100), most)
}

// keepHeapFloor sets GOGC from floorPercent now and again after every
// collection, until stop is called; tuned, when not nil, is told the
// percentage after each collection. With GOGC set in the environment the user chose the
// collector's pace: it does nothing. Go has no hook after a collection
// but a finalizer: the one set here runs after the cycle that finds its
// object unreachable, and sets another.
func keepHeapFloor(getenv func(string) string, floor uint64, tuned func(percent int)) (stop func()) {
	if getenv("GOGC") != "" {
		return func() {}
	}
	var stopped atomic.Bool
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	set := floorPercent(0, floor)
	debug.SetGCPercent(set)
	var tune func(*gcSentinel)
	tune = func(*gcSentinel) { // on the finalizers' goroutine, one at a time
		if stopped.Load() {
			return
		}
		metrics.Read(live)
		if p := floorPercent(live[0].Value.Uint64(), floor); p != set {
			debug.SetGCPercent(p)
			set = p
		}
		if tuned != nil {
			tuned(set)
		}
		runtime.SetFinalizer(&gcSentinel{}, tune)
	}
	runtime.SetFinalizer(&gcSentinel{}, tune)
	return func() { stopped.Store(true) }
}

// gcSentinel is the object whose finalizer follows the collections. It
// holds a pointer so that it is not put in a tiny allocator's block with
// other objects, whose finalizers may never run.
type gcSentinel struct{ _ *byte }
