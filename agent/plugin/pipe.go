package plugin

import (
	"io"
	"sync"
)

// pipeBuffer bounds what a pipe holds unread: a writer past it waits for
// the reader, as one of a process's pipes would.
const pipeBuffer = 1 << 20

// newPipe is io.Pipe with a buffer, for a bundled plugin's connection. An
// io.Pipe's Write waits until the reader has taken every byte, so each
// message between tandem and the plugin parked the writing goroutine and
// woke it again once read: a switch of threads more per message, some
// ten per edit with the checkpoints plugin. Here a write appends to the
// buffer and returns, and the reader is woken only if it waits.
func newPipe() (*pipeReader, *pipeWriter) {
	p := &pipe{readable: make(chan struct{}, 1), writable: make(chan struct{}, 1)}
	return &pipeReader{p}, &pipeWriter{p}
}

type pipe struct {
	mu       sync.Mutex
	buf      []byte
	rerr     error         // what reads return once buf is empty: set when the writer closes
	werr     error         // what writes return: set when the reader closes
	readable chan struct{} // a token when data arrived or the writer closed
	writable chan struct{} // a token when the reader took data or closed
}

// signal leaves a token in c unless one waits there already.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func (p *pipe) read(b []byte) (int, error) {
	p.mu.Lock()
	for len(p.buf) == 0 && p.rerr == nil && p.werr == nil {
		p.mu.Unlock()
		<-p.readable
		p.mu.Lock()
	}
	defer p.mu.Unlock()
	if p.werr != nil && p.rerr == nil { // the reader closed its own end
		return 0, io.ErrClosedPipe
	}
	if len(p.buf) == 0 {
		return 0, p.rerr
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	if len(p.buf) == 0 {
		p.buf = nil // the next write starts a fresh array rather than growing this one
	}
	signal(p.writable)
	return n, nil
}

func (p *pipe) write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.buf) >= pipeBuffer && p.werr == nil && p.rerr == nil {
		p.mu.Unlock()
		<-p.writable
		p.mu.Lock()
	}
	switch {
	case p.werr != nil:
		return 0, p.werr
	case p.rerr != nil:
		return 0, io.ErrClosedPipe
	}
	p.buf = append(p.buf, b...)
	signal(p.readable)
	return len(b), nil
}

// pipeReader is the reading end.
type pipeReader struct{ p *pipe }

func (r *pipeReader) Read(b []byte) (int, error) { return r.p.read(b) }

// Close is CloseWithError(nil).
func (r *pipeReader) Close() error { return r.CloseWithError(nil) }

// CloseWithError makes later writes fail with err (io.ErrClosedPipe when
// nil) and later reads with io.ErrClosedPipe.
func (r *pipeReader) CloseWithError(err error) error {
	if err == nil {
		err = io.ErrClosedPipe
	}
	r.p.close(&r.p.werr, err)
	return nil
}

// pipeWriter is the writing end.
type pipeWriter struct{ p *pipe }

func (w *pipeWriter) Write(b []byte) (int, error) { return w.p.write(b) }

// Close is CloseWithError(nil).
func (w *pipeWriter) Close() error { return w.CloseWithError(nil) }

// CloseWithError makes reads return err (io.EOF when nil) once they have
// taken what was written before, and later writes io.ErrClosedPipe.
func (w *pipeWriter) CloseWithError(err error) error {
	if err == nil {
		err = io.EOF
	}
	w.p.close(&w.p.rerr, err)
	return nil
}

// close sets *end (rerr or werr) to err unless an error is there already,
// and wakes a waiting reader and writer to see it.
func (p *pipe) close(end *error, err error) {
	p.mu.Lock()
	if *end == nil {
		*end = err
	}
	p.mu.Unlock()
	signal(p.readable)
	signal(p.writable)
}
