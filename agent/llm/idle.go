package llm

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// StalledError is what reading a response stream returns once the stream
// has been silent for its idle timeout.
type StalledError struct{ Idle time.Duration }

func (e *StalledError) Error() string {
	return fmt.Sprintf("the provider sent nothing for %v; gave up on the response (send the prompt again to retry)", e.Idle)
}

// idleBody is a response body that cancels its request when no bytes
// arrive for idle. Every read that returns data pushes the deadline back.
type idleBody struct {
	io.ReadCloser
	idle    time.Duration
	timer   *time.Timer
	stalled atomic.Bool
	cancel  context.CancelFunc
}

func newIdleBody(rc io.ReadCloser, idle time.Duration, cancel context.CancelFunc) *idleBody {
	b := &idleBody{ReadCloser: rc, idle: idle, cancel: cancel}
	b.timer = time.AfterFunc(idle, func() {
		b.stalled.Store(true)
		cancel()
	})
	return b
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.timer.Reset(b.idle)
	}
	if err != nil && b.stalled.Load() {
		err = &StalledError{Idle: b.idle}
	}
	return n, err
}

// Close stops the watchdog and releases the request's context.
func (b *idleBody) Close() error {
	b.timer.Stop()
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// drainWait bounds how long a finished stream's remainder is waited for.
const drainWait = 50 * time.Millisecond

// drain reads what follows a stream's last event (a blank line, the
// chunked terminator), a few KiB for at most drainWait. A body closed
// before its end takes its connection with it, so without this every
// request of a turn would dial a new one; a server that keeps the stream
// open is cut off as before.
func (b *idleBody) drain() {
	b.timer.Reset(drainWait)
	io.CopyN(io.Discard, b.ReadCloser, 4<<10)
}
