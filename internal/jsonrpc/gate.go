package jsonrpc

import (
	"errors"
	"sync"
)

// errStopped ends the read loop when Serve stopped reading before the
// input ended.
var errStopped = errors.New("jsonrpc: reading stopped")

// readGate is how Serve stops the read loop without waiting on a read that
// nothing can interrupt (a blocking stdin pipe that closing does not wake,
// a terminal). The read loop holds the gate while it handles a frame and
// lets go of it while it reads; Serve closes the gate, which waits only for
// the frame being handled. A read loop still inside a Read then is left
// behind: when the Read returns it finds the gate closed, drops what it
// read and ends, touching nothing of the Conn. Holding the gate costs an
// uncontended lock per frame, where reading on a separate goroutine would
// cost a hand-over between goroutines per read.
type readGate struct {
	mu     sync.Mutex
	closed bool
}

// enter reports whether the read loop may handle what it read; when true
// it holds the gate until leave.
func (g *readGate) enter() bool {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return false
	}
	return true
}

func (g *readGate) leave() { g.mu.Unlock() }

// close lets no further frame be handled, once the one in progress is.
func (g *readGate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}
