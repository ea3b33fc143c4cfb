package jsonrpc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

const parseErrorNull = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: `

// TestHeaderResync: each unusable header block is answered with a parse
// error (id null) and the frames after it are still served.
func TestHeaderResync(t *testing.T) {
	p := newPeer(t, Options{Framing: ContentLength, Handler: testMethods().Handle})
	for _, tc := range []struct{ name, raw, reason string }{
		{"no colon", "garbage header\r\n\r\n", "a header line has no colon"},
		{"not a length", "Content-Length: ten\r\n\r\n", "the Content-Length is not a length"},
		{"negative length", "Content-Length: -4\r\n\r\n", "the Content-Length is not a length"},
		{"no length", "Content-Type: application/json\r\n\r\n", "the header block has no Content-Length"},
		{"junk lines then a frame", "one\r\ntwo\nthree\r\n", "a header line has no colon"},
	} {
		if _, err := io.WriteString(p.in, tc.raw); err != nil {
			t.Fatal(err)
		}
		if got, want := p.next(), parseErrorNull+tc.reason+`"}}`; got != want {
			t.Errorf("%s: got  %s\nwant %s", tc.name, got, want)
		}
		p.probe(tc.name)
	}
	// Blank lines between frames are not an error: the probe is the
	// next thing written.
	io.WriteString(p.in, "\r\n\n\r\n")
	p.probe("after blank lines")
}

// TestHeaderResyncPoint: after an unusable block the reader resumes at the
// next Content-Length line even when no blank line ends the block, and at
// the end of the block otherwise; a line longer than the buffer is one
// error, not one per buffer's worth.
func TestHeaderResyncPoint(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"echo","params":[7]}`
	in := strings.Join([]string{
		"bad line\r\nmore junk\r\n" + string(frame(ContentLength, []byte(body))),
		"Content-Length: 3x\r\nContent-Type: y\r\n\r\n" + string(frame(ContentLength, []byte(body))),
		"Content-Type: " + strings.Repeat("z", 200<<10) + "\r\n" + string(frame(ContentLength, []byte(body))),
		"content-length:2\nX-Other: 1\n\n[]",
	}, "")
	outR, outW := io.Pipe()
	c := NewConn(strings.NewReader(in), outW, Options{Framing: ContentLength, Handler: testMethods().Handle,
		Inline: func(string) bool { return true }}) // answers in input order
	done := make(chan error, 1)
	go func() { done <- c.Serve(context.Background()); outW.Close() }()
	got, _ := io.ReadAll(outR)
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	answer := string(frame(ContentLength, []byte(`{"jsonrpc":"2.0","id":1,"result":[7]}`)))
	want := strings.Join([]string{
		string(frame(ContentLength, []byte(parseErrorNull+`a header line has no colon"}}`))), answer,
		string(frame(ContentLength, []byte(parseErrorNull+`the Content-Length is not a length"}}`))), answer,
		string(frame(ContentLength, []byte(parseErrorNull+`a header line is too long"}}`))), answer,
		string(frame(ContentLength, []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: batches are not supported; send one message at a time"}}`))),
	}, "")
	if string(got) != want {
		t.Errorf("wrote\n%q\nwant\n%q", got, want)
	}
}

// TestCutShort: input that ends inside a frame is the one framing error
// that ends the connection.
func TestCutShort(t *testing.T) {
	for _, in := range []string{
		"Content-Length: 10\r\n\r\n{}",
		"Content-Length: 10\r\n",
		"Content-Length: 10",
	} {
		c := NewConn(strings.NewReader(in), io.Discard, Options{Framing: ContentLength})
		if err := c.Serve(context.Background()); !errors.Is(err, ErrFraming) {
			t.Errorf("%q: Serve returned %v, want ErrFraming", in, err)
		}
	}
	// A refused block that the input ends in is a clean end: it has been
	// answered already.
	c := NewConn(strings.NewReader("junk\r\nmore"), io.Discard, Options{Framing: ContentLength})
	if err := c.Serve(context.Background()); err != nil {
		t.Errorf("input ending in a refused block: Serve returned %v", err)
	}
}

// stuckReader blocks in Read until released, whatever else happens to it,
// as a read on a blocking stdin pipe does when the pipe is closed.
type stuckReader struct {
	once    sync.Once
	entered chan struct{}
	release chan struct{}
}

func (s *stuckReader) Read(p []byte) (int, error) {
	s.once.Do(func() { close(s.entered) })
	<-s.release
	return copy(p, "Content-Length: 2\r\n\r\n{}"), nil
}

func (s *stuckReader) Close() error { return nil } // does not interrupt Read

// TestServeLeavesStuckRead: when ctx ends, Serve returns at once even though
// its Read cannot be interrupted, and the goroutine left in that Read
// stops as soon as the Read returns.
func TestServeLeavesStuckRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		before := goroutines()
		r := &stuckReader{entered: make(chan struct{}), release: make(chan struct{})}
		c := NewConn(r, io.Discard, Options{Framing: ContentLength, DrainTimeout: time.Hour})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- c.Serve(ctx) }()
		<-r.entered
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Serve waited for a read that cannot be interrupted")
		}
		synctest.Wait() // the read loop is blocked in Read for good
		if left := newGoroutines(before); len(left) != 1 || !strings.Contains(left[0], ").readLoop(") {
			t.Errorf("Serve returned leaving these goroutines, want only the read loop:\n%s", strings.Join(left, "\n\n"))
		}
		close(r.release)
		checkGoroutines(t, before)
	})
}

// TestExitStopsReading: a frame after the one whose inline handler ended
// Serve's ctx is never handled, even when it was already buffered.
func TestExitStopsReading(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var handled []string
	in := bytes.NewReader(append(frame(NewlineDelimited, []byte(`{"jsonrpc":"2.0","method":"exit"}`)),
		frame(NewlineDelimited, []byte(`{"jsonrpc":"2.0","method":"after"}`))...))
	c := NewConn(in, io.Discard, Options{
		Handler: func(_ context.Context, r *Request) (any, error) {
			handled = append(handled, r.Method)
			if r.Method == "exit" {
				cancel()
			}
			return nil, nil
		},
		Inline: func(string) bool { return true },
	})
	if err := c.Serve(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Serve: %v", err)
	}
	if strings.Join(handled, ",") != "exit" {
		t.Errorf("handled %v, want only exit", handled)
	}
}
