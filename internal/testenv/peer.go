package testenv

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Framing is how a JSON-RPC stream delimits its messages.
type Framing int

const (
	// Lines is one JSON message per line (ACP).
	Lines Framing = iota
	// ContentLength is LSP's header framing.
	ContentLength
)

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("rpc error %d: %s", e.Code, e.Message) }

// Message is one JSON-RPC message as it was on the wire.
type Message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *RPCError       `json:"error,omitempty"`
}

// Handler answers one request from the server (its result, or an error);
// for a notification the answer is dropped.
//
// Messages from the server reach it in wire order, as an editor sees them:
// notifications one at a time on one delivery goroutine, and each request,
// once every message before it was delivered, on a goroutine of its own (a
// request's handler may block, holding an answer, without stopping the
// stream). A Call returns only after every message the server wrote before
// its answer was delivered, so a test reads what it recorded without
// waiting. A notification handler holds up every later message while it
// runs, so it must not wait on the test (a full channel) nor Call the peer
// (the answer would wait for the handler): it hands such work to a
// goroutine of its own.
type Handler func(method string, params json.RawMessage) (any, *RPCError)

// Peer is the client end of a JSON-RPC connection, speaking raw JSON over
// the stream so tests do not depend on tandem's own wire code. It reads
// until the stream ends; Close ends its writing side.
type Peer struct {
	t       testing.TB
	framing Framing
	w       io.WriteCloser
	handle  Handler

	writeMu sync.Mutex
	mu      sync.Mutex // guards seq, pending and the delivery queue below
	seq     int
	pending map[string]chan answer

	// The reader queues the server's requests and notifications here and
	// the delivery goroutine hands them to handle in order: the reader
	// never waits for a handler, so answers to Calls made from request
	// handlers still arrive.
	queue     []Message
	queued    int           // messages ever queued
	delivered int           // of those, handed to handle
	moved     chan struct{} // closed and replaced when the queue changes
	ended     bool          // the stream ended: nothing more will be queued

	readDone chan struct{} // the reader stopped
	done     chan struct{} // the reader stopped and every message was delivered
}

// answer is a response to a Call with the number of messages the server
// wrote before it, which Call waits to see delivered.
type answer struct {
	Message
	after int
}

// NewPeer starts reading r; requests and notifications from the server go
// to handle. The read loop stops when r ends.
func NewPeer(t testing.TB, r io.Reader, w io.WriteCloser, framing Framing, handle Handler) *Peer {
	p := &Peer{t: t, framing: framing, w: w, handle: handle, pending: map[string]chan answer{},
		moved: make(chan struct{}), readDone: make(chan struct{}), done: make(chan struct{})}
	go p.read(bufio.NewReader(r))
	go p.deliver()
	return p
}

// Done is closed when the server's stream has ended and every message on it
// was handed to the handler.
func (p *Peer) Done() <-chan struct{} { return p.done }

// Close closes the stream to the server.
func (p *Peer) Close() error { return p.w.Close() }

// Call sends a request and waits for its answer, decoded into result
// (which may be nil).
func (p *Peer) Call(method string, params, result any) error {
	p.mu.Lock()
	p.seq++
	n := p.seq // calls may run on several goroutines
	id := strconv.Itoa(n)
	ch := make(chan answer, 1)
	p.pending[id] = ch
	p.mu.Unlock()
	if err := p.send(map[string]any{"jsonrpc": "2.0", "id": n, "method": method, "params": params}); err != nil {
		return err
	}
	var m answer
	select {
	case m = <-ch:
	case <-p.readDone:
		select {
		case m = <-ch: // answered just before the end
		default:
			return fmt.Errorf("%s: the server closed the stream before answering", method)
		}
	}
	p.waitDelivered(m.after)
	if m.Error != nil {
		return m.Error
	}
	if result == nil || len(m.Result) == 0 {
		return nil
	}
	return json.Unmarshal(m.Result, result)
}

// waitDelivered returns once the first n messages from the server were
// handed to the handler.
func (p *Peer) waitDelivered(n int) {
	for {
		p.mu.Lock()
		ok, moved := p.delivered >= n, p.moved
		p.mu.Unlock()
		if ok {
			return
		}
		<-moved
	}
}

// Notify sends a notification.
func (p *Peer) Notify(method string, params any) error {
	return p.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (p *Peer) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	if p.framing == ContentLength {
		_, err = fmt.Fprintf(p.w, "Content-Length: %d\r\n\r\n%s", len(b), b)
	} else {
		_, err = p.w.Write(append(b, '\n'))
	}
	return err
}

func (p *Peer) read(r *bufio.Reader) {
	defer func() {
		p.mu.Lock()
		p.ended = true
		p.wake()
		p.mu.Unlock()
		close(p.readDone)
	}()
	for {
		b, err := p.frame(r)
		if err != nil {
			return
		}
		var m Message
		if err := json.Unmarshal(b, &m); err != nil {
			p.t.Errorf("testenv: the server sent a frame that is not JSON-RPC: %q", b)
			return
		}
		id := strings.Trim(string(m.ID), `"`)
		p.mu.Lock()
		if m.Method != "" {
			p.queue = append(p.queue, m)
			p.queued++
			p.wake()
			p.mu.Unlock()
			continue
		}
		ch, after := p.pending[id], p.queued
		delete(p.pending, id)
		p.mu.Unlock()
		if ch != nil {
			ch <- answer{m, after}
		}
	}
}

// wake tells the goroutines waiting on the queue that it changed; p.mu is
// held.
func (p *Peer) wake() {
	close(p.moved)
	p.moved = make(chan struct{})
}

// deliver hands the server's messages to the handler in wire order until
// the stream has ended and the queue is empty. Notifications are handled
// here, one after the other; each request is started here, after every
// message before it, and answered on a goroutine of its own.
func (p *Peer) deliver() {
	defer close(p.done)
	for {
		p.mu.Lock()
		for len(p.queue) == 0 && !p.ended {
			moved := p.moved
			p.mu.Unlock()
			<-moved
			p.mu.Lock()
		}
		if len(p.queue) == 0 {
			p.mu.Unlock()
			return
		}
		m := p.queue[0]
		p.queue[0] = Message{}
		p.queue = p.queue[1:]
		p.mu.Unlock()
		if len(m.ID) == 0 {
			p.serve(m)
		} else {
			go p.serve(m)
		}
		p.mu.Lock()
		p.delivered++
		p.wake()
		p.mu.Unlock()
	}
}

// serve answers one message from the server with the handler (nil: a
// client that serves nothing).
func (p *Peer) serve(m Message) {
	var result any
	var rerr *RPCError
	if p.handle != nil {
		result, rerr = p.handle(m.Method, m.Params)
	} else {
		// No handler: notifications are ignored, requests refused.
		rerr = &RPCError{Code: -32601, Message: "the test client does not serve " + m.Method}
	}
	if len(m.ID) == 0 {
		return
	}
	reply := map[string]any{"jsonrpc": "2.0", "id": m.ID}
	if rerr != nil {
		reply["error"] = rerr
	} else {
		reply["result"] = result
	}
	_ = p.send(reply)
}

func (p *Peer) frame(r *bufio.Reader) ([]byte, error) {
	if p.framing == Lines {
		for {
			line, err := r.ReadBytes('\n')
			if len(strings.TrimSpace(string(line))) > 0 {
				return line, nil
			}
			if err != nil {
				return nil, err
			}
		}
	}
	h, err := textproto.NewReader(r).ReadMIMEHeader()
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(h.Get("Content-Length"))
	if err != nil {
		return nil, fmt.Errorf("bad Content-Length: %w", err)
	}
	b := make([]byte, n)
	_, err = io.ReadFull(r, b)
	return b, err
}
