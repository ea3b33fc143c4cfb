package jsonrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
)

// peer drives a Conn over real pipes with hand-written frames, playing the
// other side of the connection.
type peer struct {
	t     testing.TB
	conn  *Conn
	in    *io.PipeWriter // what the Conn reads
	out   *io.PipeReader // what the Conn writes
	r     *bufio.Reader
	f     Framing
	done  chan error // Serve's result
	frame chan string
}

func newPeer(t testing.TB, o Options) *peer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &peer{t: t, in: inW, out: outR, r: bufio.NewReaderSize(outR, 1<<20), f: o.Framing,
		done: make(chan error, 1), frame: make(chan string, 1)}
	p.conn = NewConn(inR, outW, o)
	go func() {
		err := p.conn.Serve(context.Background())
		outW.Close()
		p.done <- err
	}()
	go p.readFrames()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			t.Errorf("Serve did not return after its input closed")
		}
	})
	return p
}

func (p *peer) readFrames() {
	defer close(p.frame)
	for {
		var body []byte
		if p.f == ContentLength {
			hdr, err := p.r.ReadString('\n')
			if err != nil {
				return
			}
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(hdr, "Content-Length:")))
			if _, err := p.r.ReadString('\n'); err != nil {
				return
			}
			body = make([]byte, n)
			if _, err := io.ReadFull(p.r, body); err != nil {
				return
			}
		} else {
			line, err := p.r.ReadBytes('\n')
			if err != nil {
				return
			}
			body = line[:len(line)-1]
		}
		p.frame <- string(body)
	}
}

// send writes one message in the peer's framing.
func (p *peer) send(msg string) {
	p.t.Helper()
	b := frame(p.f, []byte(msg))
	if _, err := p.in.Write(b); err != nil {
		p.t.Fatalf("writing to the conn: %v", err)
	}
}

// next returns the next frame the Conn wrote.
func (p *peer) next() string {
	p.t.Helper()
	select {
	case f, ok := <-p.frame:
		if !ok {
			p.t.Fatalf("the conn closed its output")
		}
		return f
	case <-time.After(10 * time.Second):
		p.t.Fatalf("no frame from the conn within 10s")
	}
	return ""
}

// probe checks the conn still answers and that nothing else was written
// before the answer.
func (p *peer) probe(id string) {
	p.t.Helper()
	p.send(`{"jsonrpc":"2.0","id":"` + id + `","method":"echo","params":[1]}`)
	want := `{"jsonrpc":"2.0","id":"` + id + `","result":[1]}`
	if got := p.next(); got != want {
		p.t.Fatalf("probe answered %s, want %s", got, want)
	}
}

// testMethods is the handler most tests serve.
func testMethods() Methods {
	return Methods{
		"echo": func(ctx context.Context, r *Request) (any, error) { return r.Params, nil },
		"panic": func(ctx context.Context, r *Request) (any, error) {
			panic("handler bug")
		},
		"block": func(ctx context.Context, r *Request) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		},
		"sleep": func(ctx context.Context, r *Request) (any, error) {
			time.Sleep(50 * time.Millisecond)
			return "slept", nil
		},
		"fail": func(ctx context.Context, r *Request) (any, error) {
			return nil, errors.New("plain failure")
		},
		"add": Typed(func(ctx context.Context, p struct{ A, B int64 }) (int64, error) {
			return p.A + p.B, nil
		}),
	}
}

// pair connects two Conns to each other over pipes.
func pair(t *testing.T, a, b Options) (*Conn, *Conn) {
	t.Helper()
	abR, abW := io.Pipe()
	baR, baW := io.Pipe()
	ca, cb := NewConn(baR, abW, a), NewConn(abR, baW, b)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	for _, c := range []*Conn{ca, cb} {
		go func() {
			c.Serve(ctx)
			done <- struct{}{}
		}()
	}
	t.Cleanup(func() {
		cancel()
		abW.Close()
		baW.Close()
		for range 2 {
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Serve did not return")
			}
		}
	})
	return ca, cb
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func newBufReader(r io.Reader) *bufio.Reader { return bufio.NewReaderSize(r, 1<<20) }

func isFraming(err error) bool { return errors.Is(err, ErrFraming) }
