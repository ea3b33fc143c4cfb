package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestFloorPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 400},         // before the first collection: a goal of the floor
		{1 * mib, 400},   // 5× a tiny heap is still within the floor
		{3 * mib, 400},   // not 433: its scaled minimum, 17 MiB, would pass the floor
		{4 * mib, 300},   // 4 MiB + 300% = 16 MiB
		{6 * mib, 166},   // 6 + 166% ≈ 16
		{8 * mib, 100},   // half the floor: Go's default from here on
		{100 * mib, 100}, // a large heap is collected as usual
	} {
		if got := floorPercent(c.live, 16*mib); got != c.want {
			t.Errorf("floorPercent(%d MiB) = %d, want %d", c.live/mib, got, c.want)
		}
	}
}

// gogc is the collector's GOGC as the runtime reports it.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// TestKeepHeapFloorFollowsTheLiveHeap runs the tuner in this process: a
// large live heap brings GOGC down to 100 after a collection, and once
// it is garbage the next collection lifts it again.
func TestKeepHeapFloorFollowsTheLiveHeap(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	tuned := make(chan int, 16)
	stop := keepHeapFloor(func(string) string { return "" }, 16<<20, func(p int) {
		select {
		case tuned <- p:
		default:
		}
	})
	defer stop()
	if got := gogc(); got != 400 {
		t.Fatalf("GOGC at start = %d, want 400 (a 16 MiB goal)", got)
	}
	// after collects and returns the percentage the tuner set after a
	// collection that began once this call did.
	after := func() int {
		for len(tuned) > 0 { // told of a collection before this one
			<-tuned
		}
		runtime.GC()
		select {
		case p := <-tuned:
			return p
		case <-time.After(10 * time.Second):
			t.Fatal("the tuner did not run after a collection")
			return 0
		}
	}
	big := make([]*[1 << 20]byte, 40) // 40 MiB live
	for i := range big {
		big[i] = new([1 << 20]byte)
	}
	if p := after(); p != 100 || gogc() != 100 {
		t.Errorf("with 40 MiB live the tuner set %d and GOGC is %d, want 100", p, gogc())
	}
	runtime.KeepAlive(big)
	big = nil
	after() // the collection that frees them may be the one the tuner's run follows
	if p := after(); p <= 100 || gogc() != p {
		t.Errorf("with the 40 MiB gone the tuner set %d and GOGC is %d, want it above 100", p, gogc())
	}
}

func TestKeepHeapFloorLeavesAUsersGOGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	stop := keepHeapFloor(func(k string) string {
		if k == "GOGC" {
			return "150"
		}
		return ""
	}, 16<<20, func(int) { t.Error("the tuner ran with GOGC set") })
	defer stop()
	runtime.GC()
	runtime.GC()
	if got := gogc(); got != 150 {
		t.Errorf("GOGC = %d, want the user's 150", got)
	}
}
