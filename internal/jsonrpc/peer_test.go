package jsonrpc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

var acpCancel = Cancel{Method: "$/cancel_request", Field: "requestId", Notify: true}

// TestCallsBothWays: many concurrent calls in each direction, and a handler
// that calls back into the peer before it answers.
func TestCallsBothWays(t *testing.T) {
	var a, b *Conn
	ma := testMethods()
	mb := testMethods()
	mb["nested"] = func(ctx context.Context, r *Request) (any, error) {
		var sum int64
		if err := b.Call(ctx, "add", map[string]int{"A": 1, "B": 2}, &sum); err != nil {
			return nil, err
		}
		return sum * 10, nil
	}
	a, b = pair(t, Options{Handler: ma.Handle}, Options{Handler: mb.Handle})
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			var got int64
			if err := a.Call(ctx, "add", map[string]int{"A": i, "B": 1000}, &got); err != nil || got != int64(i+1000) {
				t.Errorf("a→b add %d: %d, %v", i, got, err)
			}
		}()
		go func() {
			defer wg.Done()
			var got int64
			if err := b.Call(ctx, "add", map[string]int{"A": i, "B": 2000}, &got); err != nil || got != int64(i+2000) {
				t.Errorf("b→a add %d: %d, %v", i, got, err)
			}
		}()
	}
	wg.Wait()
	var got int64
	if err := a.Call(ctx, "nested", nil, &got); err != nil || got != 30 {
		t.Errorf("nested call: %d, %v", got, err)
	}
	var rerr *Error
	if err := a.Call(ctx, "nothing", nil, nil); !errors.As(err, &rerr) || rerr.Code != CodeMethodNotFound {
		t.Errorf("unknown method: %v", err)
	}
	if err := a.Notify(ctx, "echo", []int{1}); err != nil {
		t.Errorf("notify: %v", err)
	}
}

// TestPeerCancelsHandler: the cancel notification (ACP's or LSP's spelling)
// cancels the named request's context, which answers -32800; a string id
// "7" does not cancel request 7.
func TestPeerCancelsHandler(t *testing.T) {
	for _, c := range []Cancel{acpCancel, {Method: "$/cancelRequest", Field: "id"}} {
		p := newPeer(t, Options{Handler: testMethods().Handle, Cancel: c})
		p.send(`{"jsonrpc":"2.0","id":7,"method":"block"}`)
		p.send(`{"jsonrpc":"2.0","method":"` + c.Method + `","params":{"` + c.Field + `":"7"}}`)
		p.probe("still-blocked")
		p.send(`{"jsonrpc":"2.0","method":"` + c.Method + `","params":{"` + c.Field + `":7}}`)
		if got, want := p.next(), `{"jsonrpc":"2.0","id":7,"error":{"code":-32800,"message":"the request was cancelled"}}`; got != want {
			t.Errorf("%s: got %s, want %s", c.Method, got, want)
		}
	}
}

// TestCallContextEnds: a Call whose ctx ends returns at once and the peer
// hears the cancel notice, which ends its handler.
func TestCallContextEnds(t *testing.T) {
	a, _ := pair(t, Options{Cancel: acpCancel}, Options{Handler: testMethods().Handle, Cancel: acpCancel})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := a.Call(ctx, "block", nil, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("call: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("call returned after %v", d)
	}
	// The peer saw the notice: its handler ended (pair's cleanup would
	// otherwise wait for it until shutdown, so check directly).
	p := newPeer(t, Options{Cancel: acpCancel})
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		p.conn.Call(ctx, "slow", nil, nil)
	}()
	if got := p.next(); got != `{"jsonrpc":"2.0","id":1,"method":"slow"}` {
		t.Fatalf("request %s", got)
	}
	if got := p.next(); got != `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}` {
		t.Fatalf("cancel notice %s", got)
	}
	p.send(`{"jsonrpc":"2.0","id":1,"result":"late"}`) // stray now: ignored
	p.send(`{"jsonrpc":"2.0","id":"x","method":"echo"}`)
	if got := p.next(); got != `{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"Method not found: \"echo\""}}` {
		t.Errorf("after a late response: %s", got)
	}
}

// TestInlineRunsInOrder: inline methods run on the read loop one after the
// other, so a slow one holds back what follows; others run concurrently.
func TestInlineRunsInOrder(t *testing.T) {
	var mu sync.Mutex
	var order []string
	m := testMethods()
	m["didChange"] = func(ctx context.Context, r *Request) (any, error) {
		time.Sleep(time.Duration(len(order)%3) * 5 * time.Millisecond)
		mu.Lock()
		order = append(order, string(r.Params))
		mu.Unlock()
		return nil, nil
	}
	p := newPeer(t, Options{Handler: m.Handle, Inline: func(m string) bool { return m == "didChange" }})
	var want []string
	for i := range 20 {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"didChange","params":%d}`, i))
		want = append(want, fmt.Sprint(i))
	}
	p.probe("done")
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Errorf("inline order %v", order)
	}
}

// TestAfterResponse: what a handler arranges to send after its response
// follows it on the wire.
func TestAfterResponse(t *testing.T) {
	var c *Conn
	m := Methods{"open": func(ctx context.Context, r *Request) (any, error) {
		AfterResponse(ctx, func() { c.Notify(ctx, "opened", "s1") })
		time.Sleep(10 * time.Millisecond)
		return "s1", nil
	}}
	p := newPeer(t, Options{Handler: m.Handle})
	c = p.conn
	if AfterResponse(context.Background(), func() {}) {
		t.Error("AfterResponse outside a handler accepted a function")
	}
	p.send(`{"jsonrpc":"2.0","id":1,"method":"open"}`)
	if got := p.next(); got != `{"jsonrpc":"2.0","id":1,"result":"s1"}` {
		t.Fatalf("first frame %s", got)
	}
	if got := p.next(); got != `{"jsonrpc":"2.0","method":"opened","params":"s1"}` {
		t.Fatalf("second frame %s", got)
	}
}

// TestOutboundCap: nothing over the cap is written; a response over it is
// replaced by an error so the peer is not left waiting.
func TestOutboundCap(t *testing.T) {
	big := strings.Repeat("y", 500)
	m := Methods{"big": func(ctx context.Context, r *Request) (any, error) { return big, nil }}
	p := newPeer(t, Options{Handler: m.Handle, MaxOutbound: 200})
	p.send(`{"jsonrpc":"2.0","id":"b","method":"big"}`)
	if got, want := p.next(), `{"jsonrpc":"2.0","id":"b","error":{"code":-32603,"message":"the response could not be sent: jsonrpc: message too large: 538 bytes exceed the 200-byte limit"}}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if err := p.conn.Notify(context.Background(), "big", big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("notify over the cap: %v", err)
	}
	if err := p.conn.Call(context.Background(), "big", big, nil); !errors.Is(err, ErrTooLarge) {
		t.Errorf("call over the cap: %v", err)
	}
	p.send(`{"jsonrpc":"2.0","id":"n","method":"small"}`)
	if got := p.next(); !strings.Contains(got, `"id":"n"`) {
		t.Errorf("an oversized message was written: %.80s", got)
	}
}

// TestOversizedResponseFailsCall: a response over the inbound cap fails the
// call waiting for it instead of leaving it hanging.
func TestOversizedResponseFailsCall(t *testing.T) {
	p := newPeer(t, Options{MaxInbound: 100})
	errc := make(chan error, 1)
	go func() { errc <- p.conn.Call(context.Background(), "read", nil, nil) }()
	p.next()
	p.send(`{"jsonrpc":"2.0","id":1,"result":"` + strings.Repeat("z", 200) + `"}`)
	var rerr *Error
	if err := <-errc; !errors.As(err, &rerr) || !strings.Contains(rerr.Message, "exceeds the 100-byte limit") {
		t.Errorf("call: %v", err)
	}
}

// TestBackPressure: with a peer that does not read, senders block (and give
// up with their ctx) once the outbox is full; nothing piles up unbounded.
func TestBackPressure(t *testing.T) {
	p := newPeer(t, Options{Outbox: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	sent := 0
	var err error
	for sent < 100 {
		if err = p.conn.Notify(ctx, "n", sent); err != nil {
			break
		}
		sent++
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("notify on a full outbox: %v after %d", err, sent)
	}
	// The pipe holds nothing, the peer reader goroutine holds its channel's
	// worth; the outbox and the writer hold a few. Bounded either way.
	if sent > 2+1+cap(p.frame)+1+1 {
		t.Errorf("%d notifications accepted without the peer reading", sent)
	}
	for range sent {
		p.next()
	}
	if err := p.conn.Notify(context.Background(), "n", "again"); err != nil {
		t.Errorf("after the peer read: %v", err)
	}
	if got := p.next(); got != `{"jsonrpc":"2.0","method":"n","params":"again"}` {
		t.Errorf("got %s", got)
	}
}
