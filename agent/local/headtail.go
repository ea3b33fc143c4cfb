package local

import (
	"fmt"
	"sync"
	"unicode/utf8"
)

// headTail keeps the first and last bytes of a stream within a limit and
// counts what fell in between, so a command's beginning (what it was doing)
// and end (how it failed) both survive a flood of output. Safe for
// concurrent use: the process writes while the progress ticker reads.
type headTail struct {
	limit int // 0 keeps everything

	mu      sync.Mutex // guards the fields below
	head    []byte
	tail    []byte
	total   int64
	version int64 // bumps on every write, so readers can skip unchanged output
}

func newHeadTail(limit int) *headTail { return &headTail{limit: limit} }

func (h *headTail) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	written := len(p)
	h.total += int64(written)
	h.version++
	if h.limit <= 0 {
		h.head = append(h.head, p...)
		return len(p), nil
	}
	headCap := h.limit / 2
	if room := headCap - len(h.head); room > 0 {
		n := min(room, len(p))
		h.head = append(h.head, p[:n]...)
		p = p[n:]
	}
	tailCap := h.limit - headCap
	h.tail = append(h.tail, p...)
	// Trim lazily (at twice the cap) so appends stay amortised O(1).
	if len(h.tail) > 2*tailCap {
		h.tail = append(h.tail[:0], h.tail[len(h.tail)-tailCap:]...)
	}
	return written, nil
}

// String is the kept output, with a marker where the middle was dropped.
func (h *headTail) String() (out string, truncated bool, version int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.limit <= 0 {
		return string(h.head), false, h.version
	}
	tail := h.tail
	if tailCap := h.limit - h.limit/2; len(tail) > tailCap {
		tail = tail[len(tail)-tailCap:]
	}
	omitted := h.total - int64(len(h.head)) - int64(len(tail))
	if omitted <= 0 {
		return string(h.head) + string(tail), false, h.version
	}
	head := h.head
	// Do not split a UTF-8 sequence at either cut.
	for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
		if utf8.RuneStart(head[i]) {
			if !utf8.FullRune(head[i:]) {
				head = head[:i]
			}
			break
		}
	}
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	omitted = h.total - int64(len(head)) - int64(len(tail))
	return fmt.Sprintf("%s\n\n[... %d bytes of output omitted ...]\n\n%s", head, omitted, tail), true, h.version
}
