package jsonrpc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestGracefulEnd: requests received before the input closed are all
// answered before Serve returns, PeerClosed runs, and no goroutine of the
// Conn outlives Serve.
func TestGracefulEnd(t *testing.T) {
	before := runtime.NumGoroutine()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	closed := make(chan struct{})
	c := NewConn(inR, outW, Options{Handler: testMethods().Handle, PeerClosed: func() { close(closed) }})
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(outR)
		got <- string(b)
	}()
	done := make(chan error)
	go func() { done <- c.Serve(context.Background()) }()
	for i := range 5 {
		fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%d,"method":"sleep"}`+"\n", i)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	outW.Close()
	out := <-got
	for i := range 5 {
		if !strings.Contains(out, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":"slept"}`, i)) {
			t.Errorf("request %d unanswered: %s", i, out)
		}
	}
	select {
	case <-closed:
	default:
		t.Error("PeerClosed did not run")
	}
	if err := c.Notify(context.Background(), "late", nil); !errors.Is(err, ErrClosed) {
		t.Errorf("notify after Serve: %v", err)
	}
	waitGoroutines(t, before)
}

// TestDrainTimeout: a handler still running after DrainTimeout has its ctx
// cancelled and is answered; Serve then returns.
func TestDrainTimeout(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := NewConn(inR, outW, Options{Handler: testMethods().Handle, DrainTimeout: 50 * time.Millisecond})
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(outR)
		got <- string(b)
	}()
	done := make(chan error)
	go func() { done <- c.Serve(context.Background()) }()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"block"}`+"\n")
	inW.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return")
	}
	outW.Close()
	if out := <-got; !strings.Contains(out, `"id":1,"error"`) {
		t.Errorf("blocked request not answered: %s", out)
	}
}

// TestServeContextEnds: cancelling Serve's ctx unblocks the reader (closed),
// fails pending calls and stops everything.
func TestServeContextEnds(t *testing.T) {
	before := runtime.NumGoroutine()
	inR, _ := io.Pipe()
	outR, outW := io.Pipe()
	c := NewConn(inR, outW, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- c.Serve(ctx) }()
	callErr := make(chan error)
	go func() { callErr <- c.Call(context.Background(), "never", nil, nil) }()
	// The call is pending once its request is on the wire.
	out := bufio.NewReader(outR)
	if line, err := out.ReadString('\n'); err != nil || !strings.Contains(line, `"never"`) {
		t.Fatalf("the call's request: %q, %v", line, err)
	}
	go io.Copy(io.Discard, out)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Serve: %v", err)
	}
	if err := <-callErr; !errors.Is(err, ErrClosed) {
		t.Errorf("pending call: %v", err)
	}
	outW.Close()
	waitGoroutines(t, before)
}

// TestStuckWriter: a peer that never reads does not keep Serve from
// returning; the output is closed after DrainTimeout.
func TestStuckWriter(t *testing.T) {
	inR, inW := io.Pipe()
	_, outW := io.Pipe() // nobody reads
	c := NewConn(inR, outW, Options{Handler: testMethods().Handle, DrainTimeout: 50 * time.Millisecond})
	done := make(chan error)
	go func() { done <- c.Serve(context.Background()) }()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"echo"}`+"\n")
	inW.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Serve hung on a writer nobody reads")
	}
}

// TestDuplicateID: a second request reusing an id in flight is refused; the
// first is still answered.
func TestDuplicateID(t *testing.T) {
	p := newPeer(t, Options{Handler: testMethods().Handle, Cancel: acpCancel})
	p.send(`{"jsonrpc":"2.0","id":"d","method":"block"}`)
	p.send(`{"jsonrpc":"2.0","id":"d","method":"echo"}`)
	if got, want := p.next(), `{"jsonrpc":"2.0","id":"d","error":{"code":-32600,"message":"Invalid request: id \"d\" is already in use by a request in flight"}}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	p.send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"d"}}`)
	if got := p.next(); !strings.Contains(got, `"code":-32800`) {
		t.Errorf("first request: %s", got)
	}
}

// TestInFlightLimit: requests beyond MaxInFlight are refused, not queued.
func TestInFlightLimit(t *testing.T) {
	p := newPeer(t, Options{Handler: testMethods().Handle, MaxInFlight: 2, Cancel: acpCancel})
	p.send(`{"jsonrpc":"2.0","id":1,"method":"block"}`)
	p.send(`{"jsonrpc":"2.0","id":2,"method":"block"}`)
	p.send(`{"jsonrpc":"2.0","id":3,"method":"echo"}`)
	if got := p.next(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"too many requests in flight (limit 2)`) {
		t.Errorf("third request: %s", got)
	}
	p.send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}`)
	p.next()
	p.probe("room-again")
	p.send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":2}}`)
	p.next()
}

// A request stops counting against MaxInFlight before its answer is
// written: a peer that sends its next request on reading the answer finds
// room, even while the answered request's after-response work still runs.
func TestAnsweredRequestFreesItsSlot(t *testing.T) {
	hold := make(chan struct{})
	defer close(hold)
	m := testMethods()
	m["answerThenHold"] = func(ctx context.Context, r *Request) (any, error) {
		AfterResponse(ctx, func() { <-hold })
		return "answered", nil
	}
	p := newPeer(t, Options{Handler: m.Handle, MaxInFlight: 1})
	p.send(`{"jsonrpc":"2.0","id":1,"method":"answerThenHold"}`)
	if got := p.next(); got != `{"jsonrpc":"2.0","id":1,"result":"answered"}` {
		t.Fatalf("answer: %s", got)
	}
	p.probe("next")
}

// waitGoroutines fails when goroutines started since before are still
// running after a grace period. A goroutine's exit has no event to wait
// on (one that signalled its owner may not have returned yet), so this
// one check polls, as goleak does; everything else waits on events.
func waitGoroutines(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}
