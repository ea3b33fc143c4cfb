package main

import (
	"bytes"
	"io"
	"strconv"
	"sync/atomic"
	"time"
)

// heapLine is how tandem reports its live heap after a collection under
// TANDEM_HEAPSTAT (cmd/tandem/heapstat.go): once at start, then on each
// SIGUSR1. A build that never reported it would die of the signal, so it
// is sent only to one that has.
var heapLine = []byte("tandem: live heap ")

// heapWatch passes an agent's stderr on to w and sends the live heap
// sizes it reports to c (holding one; a report nobody waits for is
// dropped).
type heapWatch struct {
	w    io.Writer
	c    chan int64
	line []byte
	seen atomic.Bool // a report came: the agent answers the signal
}

func (h *heapWatch) Write(b []byte) (int, error) {
	for rest := b; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			h.line = append(h.line, rest...)
			break
		}
		h.line = append(h.line, rest[:i]...)
		if v, ok := bytes.CutPrefix(h.line, heapLine); ok {
			if n, err := strconv.ParseInt(string(bytes.TrimSuffix(v, []byte(" bytes"))), 10, 64); err == nil {
				h.seen.Store(true)
				select {
				case h.c <- n:
				default: // nobody asked
				}
			}
		}
		h.line, rest = h.line[:0], rest[i+1:]
	}
	return h.w.Write(b)
}

// liveHeap asks the agent for its live heap (what it keeps, without the
// collector's headroom that its resident size also holds); 0 when it
// cannot tell (no signal here, a floor, an older tandem).
func (p *agentProc) liveHeap() int64 {
	if !p.heap.seen.Load() {
		return 0
	}
	select {
	case <-p.heap.c: // the report at start, or one that came late
	default:
	}
	if !askHeap(p.cmd.Process) {
		return 0
	}
	select {
	case n := <-p.heap.c:
		return n
	case <-time.After(5 * time.Second):
		return 0
	}
}
