package jsonrpc

import (
	"errors"
	"io"
)

// errStopped ends the read loop when Serve stops reading before the input
// ended.
var errStopped = errors.New("jsonrpc: reading stopped")

// pump is how the read loop reads the peer's input: each Read is handed
// to a goroutine of pump's own, which does the blocking read into the
// caller's buffer. The read loop waits for it or for stop, whichever comes
// first, so Serve never waits on a read that closing the input cannot
// interrupt (a blocking stdin pipe, a terminal). After stop, the goroutine
// lives only until the Read in progress returns; what that read brings is
// dropped. One reader at a time: the read loop.
type pump struct {
	src  io.Reader
	req  chan []byte
	res  chan pumped
	stop chan struct{}
}

type pumped struct {
	n   int
	err error
}

func newPump(src io.Reader, stop chan struct{}) *pump {
	p := &pump{src: src, req: make(chan []byte), res: make(chan pumped, 1), stop: stop}
	go p.run()
	return p
}

func (p *pump) run() {
	for {
		select {
		case b := <-p.req:
			n, err := p.src.Read(b)
			p.res <- pumped{n, err} // buffered: nobody may be waiting after stop
		case <-p.stop:
			return
		}
	}
}

// Read returns what the goroutine read, or errStopped once stop is closed.
// After errStopped the buffer may still be written by the read in
// progress, so the caller must drop it (the read loop ends).
func (p *pump) Read(b []byte) (int, error) {
	select {
	case p.req <- b:
	case <-p.stop:
		return 0, errStopped
	}
	select {
	case r := <-p.res:
		return r.n, r.err
	case <-p.stop:
		return 0, errStopped
	}
}
