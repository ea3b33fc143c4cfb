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
	"testing/synctest"
	"time"
)

// TestGracefulEnd: requests received before the input closed are all
// answered before Serve returns, PeerClosed runs, and no goroutine of the
// Conn outlives Serve.
func TestGracefulEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		before := goroutines()
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
		checkGoroutines(t, before)
	})
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
	synctest.Test(t, func(t *testing.T) {
		before := goroutines()
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
		checkGoroutines(t, before)
	})
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

// goroutines returns the stacks of the goroutines running this package's
// code that the tests did not start themselves (one created in a _test.go
// file is the test's own), by goroutine header ("goroutine 7").
func goroutines() map[string]string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	out := map[string]string{}
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		header, _, _ := strings.Cut(g, " [")
		created := g[strings.LastIndex(g, "created by ")+1:]
		if !strings.Contains(g, "/internal/jsonrpc.") || strings.Contains(created, "_test.go:") || strings.Contains(g, "testing.tRunner") {
			continue
		}
		out[header] = g
	}
	return out
}

// newGoroutines returns the stacks of goroutines' result that were not in
// before.
func newGoroutines(before map[string]string) []string {
	var left []string
	for id, g := range goroutines() {
		if _, ok := before[id]; !ok {
			left = append(left, g)
		}
	}
	return left
}

// checkGoroutines fails the test if a goroutine of this package's code
// that was not there before (goroutines' result at the test's start) is
// left. It runs in a synctest bubble: synctest.Wait returns once every
// other goroutine of the bubble has exited or is blocked for good, so what
// is left then is stuck, not on its way out (a goroutine that has told
// its owner it is done still has to return), and one check is final.
func checkGoroutines(t *testing.T, before map[string]string) {
	t.Helper()
	synctest.Wait()
	if left := newGoroutines(before); len(left) > 0 {
		t.Fatalf("goroutines outlived Serve:\n%s", strings.Join(left, "\n\n"))
	}
}
