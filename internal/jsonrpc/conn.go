package jsonrpc

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Handler answers one incoming request or notification. Its result is
// encoded as the response's result (nil becomes null); an error becomes an
// error response (an *Error keeps its code, anything else is -32603, and a
// context.Canceled after the peer cancelled the request is -32800). For a
// notification both are discarded. The ctx ends when the peer cancels the
// request or the connection shuts down; a handler must return soon after.
type Handler func(ctx context.Context, req *Request) (result any, err error)

// Cancel describes the peer's cancel notification.
type Cancel struct {
	// Method is the notification's name: "$/cancel_request" (ACP) or
	// "$/cancelRequest" (LSP). Empty: cancellation is not spoken.
	Method string
	// Field is the params member holding the request id: "requestId"
	// (ACP) or "id" (LSP).
	Field string
	// Notify sends Method to the peer when a Call's context ends before
	// its response arrived.
	Notify bool
}

// Defaults of Options.
const (
	DefaultMaxMessage   = 8 << 20
	DefaultOutbox       = 64
	DefaultMaxInFlight  = 1024
	DefaultDrainTimeout = 5 * time.Second
)

// Options configure a Conn. The zero value is usable: newline framing, no
// handler (every request is answered -32601), default limits.
type Options struct {
	Framing Framing
	Handler Handler
	Cancel  Cancel
	// Inline reports methods that run on the read loop in arrival order
	// instead of in their own goroutine. Such handlers must not Call.
	Inline func(method string) bool
	// PeerClosed runs once when the peer's input ends, before Serve waits
	// for the requests still being handled (e.g. to cancel long work that
	// nobody will read).
	PeerClosed func()
	// MaxOutbound and MaxInbound cap one message's size in bytes (without
	// framing). Zero: DefaultMaxMessage.
	MaxOutbound, MaxInbound int
	// Outbox is how many frames may wait for the writer before senders
	// block. Zero: DefaultOutbox.
	Outbox int
	// MaxInFlight bounds requests handled at once (inline ones aside);
	// more are answered with an error rather than queued. Zero:
	// DefaultMaxInFlight.
	MaxInFlight int
	// DrainTimeout bounds how long Serve lets running handlers finish after
	// the input ended, and how long it waits for a stuck writer. Zero:
	// DefaultDrainTimeout.
	DrainTimeout time.Duration
	// Log receives diagnostics (never message contents). Nil: discarded.
	Log *slog.Logger
}

// ErrClosed is returned by Call and Notify once the connection has shut
// down or its writer failed.
var ErrClosed = errors.New("jsonrpc: connection closed")

// ErrTooLarge is wrapped by errors about messages over a size cap.
var ErrTooLarge = errors.New("jsonrpc: message too large")

// Conn is one JSON-RPC peer over a reader and a writer. Make it with
// NewConn, run it with Serve; Call and Notify work from any goroutine while
// Serve runs.
type Conn struct {
	o   Options
	r   io.Reader
	w   io.Writer
	log *slog.Logger

	outbox     chan outFrame
	writerDone chan struct{} // closed when the writer has stopped
	stopWriter chan struct{} // closed to make the writer finish the queue and stop
	writeErrMu sync.Mutex
	writeErr   error

	pendingMu sync.Mutex // guards pending and nextID
	pending   map[string]chan *message
	nextID    int64

	inflightMu sync.Mutex // guards inflight
	inflight   map[string]*inflight
	stopped    bool // no new handler may start
	handlers   sync.WaitGroup
	slots      chan struct{} // one per running non-inline handler

	serveOnce sync.Once
}

// NewConn makes a connection reading r and writing w. Nothing happens until
// Serve runs.
func NewConn(r io.Reader, w io.Writer, o Options) *Conn {
	if o.MaxOutbound <= 0 {
		o.MaxOutbound = DefaultMaxMessage
	}
	if o.MaxInbound <= 0 {
		o.MaxInbound = DefaultMaxMessage
	}
	if o.Outbox <= 0 {
		o.Outbox = DefaultOutbox
	}
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = DefaultMaxInFlight
	}
	if o.DrainTimeout <= 0 {
		o.DrainTimeout = DefaultDrainTimeout
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Conn{
		o: o, r: r, w: w, log: log,
		outbox:     make(chan outFrame, o.Outbox),
		writerDone: make(chan struct{}),
		stopWriter: make(chan struct{}),
		pending:    make(map[string]chan *message),
		inflight:   make(map[string]*inflight),
		slots:      make(chan struct{}, o.MaxInFlight),
	}
}

// Serve runs the connection until the peer's input ends or ctx is
// cancelled, and returns once every goroutine it started has stopped: nil
// after a clean end of input, ctx's error, or the read or framing error.
//
// When ctx ends, Serve closes the reader if it is an io.Closer and stops
// reading at once, without waiting for a read in progress (see readGate):
// a read that closing does not interrupt cannot hold Serve. The read
// loop's goroutine is then the one Serve leaves behind; it ends as soon as
// that Read returns, and what it read is dropped. A writer stuck for
// DrainTimeout (a peer that no longer reads) is closed the same way if it
// is an io.Closer. Serve may be called once.
func (c *Conn) Serve(ctx context.Context) error {
	err := ErrClosed
	c.serveOnce.Do(func() { err = c.serve(ctx) })
	return err
}

func (c *Conn) serve(ctx context.Context) error {
	handlerCtx, cancelHandlers := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelHandlers()
	go c.writer()

	gate := &readGate{}
	readDone := make(chan error, 1) // buffered: a read loop left behind must not block
	go func() { readDone <- c.readLoop(handlerCtx, ctx, gate) }()

	var err error
	select {
	case err = <-readDone:
		if err == errStopped {
			// An inline handler ended ctx and the read loop saw it
			// before this select did: the same stop as the case below.
			err = ctx.Err()
			break
		}
		if c.o.PeerClosed != nil {
			c.o.PeerClosed()
		}
	case <-ctx.Done():
		err = ctx.Err()
		if cl, ok := c.r.(io.Closer); ok {
			cl.Close()
		}
		// An inline handler on the read loop returns once its ctx ends;
		// then the gate closes, and nothing more is handled.
		cancelHandlers()
		gate.close()
	}
	// No handler starts from here on, so the wait below is final.
	c.inflightMu.Lock()
	c.stopped = true
	c.inflightMu.Unlock()
	done := make(chan struct{})
	go func() {
		c.handlers.Wait()
		close(done)
	}()
	if ctx.Err() == nil {
		t := time.NewTimer(c.o.DrainTimeout)
		select {
		case <-done:
		case <-t.C:
			c.log.Warn("jsonrpc: requests still unanswered after the input ended; cancelling them", "waited", c.o.DrainTimeout)
		}
		t.Stop()
	}
	cancelHandlers()
	<-done
	c.failPending()
	c.stopWriting()
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return err
}

// failPending ends every Call still waiting: no response can come now.
func (c *Conn) failPending() {
	c.pendingMu.Lock()
	defer c.pendingMu.Unlock()
	for k, ch := range c.pending {
		close(ch)
		delete(c.pending, k)
	}
}
