package jsonrpc

import (
	"context"
	"fmt"
	"io"
	"time"
)

// outFrame is one framed message waiting for the writer. written, when
// set, receives the write's outcome.
type outFrame struct {
	b       []byte
	written chan error
}

// writer is the only goroutine that writes to c.w. It stops when told to,
// after writing what is queued, or at the first write error.
func (c *Conn) writer() {
	defer close(c.writerDone)
	for {
		select {
		case f := <-c.outbox:
			if !c.write(f) {
				return
			}
		case <-c.stopWriter:
			for {
				select {
				case f := <-c.outbox:
					if !c.write(f) {
						return
					}
				default:
					return
				}
			}
		}
	}
}

func (c *Conn) write(f outFrame) bool {
	_, err := c.w.Write(f.b)
	if f.written != nil {
		f.written <- err
	}
	if err != nil {
		c.writeErrMu.Lock()
		c.writeErr = err
		c.writeErrMu.Unlock()
		c.log.Warn("jsonrpc: writing to the peer failed; nothing more will be sent", "err", err)
		return false
	}
	return true
}

// stopWriting lets the writer finish the queue, at most DrainTimeout; a
// writer stuck on a peer that does not read is unblocked by closing w when
// it can be closed.
func (c *Conn) stopWriting() {
	close(c.stopWriter)
	t := time.NewTimer(c.o.DrainTimeout)
	defer t.Stop()
	select {
	case <-c.writerDone:
		return
	case <-t.C:
	}
	if cl, ok := c.w.(io.Closer); ok {
		c.log.Warn("jsonrpc: the peer stopped reading; closing the output")
		cl.Close()
		<-c.writerDone
		return
	}
	c.log.Warn("jsonrpc: the peer stopped reading and the output cannot be closed; leaving its writer behind")
}

// send queues one encoded message, blocking while the outbox is full until
// ctx ends. With wait, it returns only once the frame was written.
func (c *Conn) send(ctx context.Context, body []byte, wait bool) error {
	if len(body) > c.o.MaxOutbound {
		return fmt.Errorf("%w: %d bytes exceed the %d-byte limit", ErrTooLarge, len(body), c.o.MaxOutbound)
	}
	f := outFrame{b: frame(c.o.Framing, body)}
	if wait {
		f.written = make(chan error, 1)
	}
	// A stopped writer never drains the outbox: check it first so a full
	// outbox does not hide it.
	select {
	case <-c.writerDone:
		return c.closedErr()
	case <-c.stopWriter:
		return ErrClosed
	default:
	}
	select {
	case c.outbox <- f: // room: no need to look at ctx
	default:
		select {
		case c.outbox <- f:
		case <-c.writerDone:
			return c.closedErr()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if !wait {
		return nil
	}
	select {
	case err := <-f.written:
		return err
	case <-c.writerDone:
		select {
		case err := <-f.written:
			return err
		default:
			return c.closedErr()
		}
	}
}

func (c *Conn) closedErr() error {
	c.writeErrMu.Lock()
	defer c.writeErrMu.Unlock()
	if c.writeErr != nil {
		return fmt.Errorf("%w: %w", ErrClosed, c.writeErr)
	}
	return ErrClosed
}
