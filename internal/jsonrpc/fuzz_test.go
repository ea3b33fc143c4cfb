package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

var fuzzSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}}`,
	`{"jsonrpc":"2.0","id":"","method":"echo"}`,
	`{"jsonrpc":"2.0","id":"a\"\u0041","method":"add","params":{"A":1,"B":2}}`,
	`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"echo"}`,
	`{"jsonrpc":"2.0","id":null,"method":"echo"}`,
	`{"jsonrpc":"2.0","id":{"x":1},"method":"echo"}`,
	`{"jsonrpc":"2.0","id":1e400,"method":"echo"}`,
	`{"jsonrpc":"1.0","id":2,"method":"echo"}`,
	`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}`,
	`{"jsonrpc":"2.0","id":5,"result":{}}`,
	`{"jsonrpc":"2.0","id":5,"error":{"code":1,"message":"m"}}`,
	`{"jsonrpc":"2.0","id":6,"method":"panic"}`,
	`[{"jsonrpc":"2.0","id":1,"method":"echo"}]`,
	"\x00\xff{",
	`{"jsonrpc":"2.0","id":7,"method":""}`,
	"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"echo\"}\n{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"echo\"}",
}

// checkAnswers reads everything the Conn wrote for input and checks each
// frame is a well-formed JSON-RPC 2.0 response whose id is one the input
// contained verbatim (or null).
func checkAnswers(t *testing.T, input string, frames []string) {
	for _, f := range frames {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(f), &m); err != nil {
			t.Fatalf("the conn wrote a frame that is not a JSON object: %q", f)
		}
		if string(m["jsonrpc"]) != `"2.0"` {
			t.Fatalf("frame without jsonrpc 2.0: %s", f)
		}
		_, hasResult := m["result"]
		_, hasErr := m["error"]
		if hasResult == hasErr {
			t.Fatalf("frame is not a response: %s", f)
		}
		id := string(m["id"])
		if id != "null" && !strings.Contains(input, id) {
			t.Fatalf("response id %s does not appear in the input", id)
		}
	}
}

// runFuzz serves input through a Conn and returns the frames written.
func runFuzz(t *testing.T, f Framing, input []byte) ([]string, error) {
	outR, outW := io.Pipe()
	c := NewConn(bytes.NewReader(input), outW, Options{Framing: f, Handler: testMethods().Handle,
		Cancel: acpCancel, MaxInbound: 1024, DrainTimeout: 200 * time.Millisecond})
	var frames []string
	read := make(chan struct{})
	go func() {
		defer close(read)
		p := &peer{t: t, r: newBufReader(outR), f: f, frame: make(chan string, 1)}
		go p.readFrames()
		for fr := range p.frame {
			frames = append(frames, fr)
		}
	}()
	served := make(chan error, 1)
	go func() { served <- c.Serve(context.Background()) }()
	var err error
	select {
	case err = <-served:
	case <-time.After(10 * time.Second):
		buf := make([]byte, 1<<20)
		t.Fatalf("Serve hung on %q:\n%s", input, buf[:runtime.Stack(buf, true)])
	}
	outW.Close()
	<-read
	return frames, err
}

// FuzzConnNewline: any bytes, read as lines, never crash the Conn or make it
// write anything but well-formed responses with ids from the input.
func FuzzConnNewline(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		frames, err := runFuzz(t, NewlineDelimited, input)
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
		checkAnswers(t, string(input), frames)
	})
}

// FuzzConnContentLength: the same over LSP framing; only input that ends
// inside a frame may end the connection (ErrFraming): an unusable header
// block is answered and skipped.
func FuzzConnContentLength(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(frame(ContentLength, []byte(s)))
	}
	f.Add([]byte("Content-Length: 99999\r\n\r\n{"))
	f.Add([]byte("content-length:2\r\nContent-Type: x\r\n\r\n{}"))
	f.Add([]byte("junk\r\n\r\nContent-Length: x\r\nContent-Length: 2\r\n\r\n{}\r\n"))
	f.Fuzz(func(t *testing.T, input []byte) {
		frames, err := runFuzz(t, ContentLength, input)
		if err != nil && !isFraming(err) {
			t.Fatalf("Serve: %v", err)
		}
		checkAnswers(t, string(input), frames)
	})
}

// FuzzConnParse: parse either accepts a frame or says why, and an accepted
// request's id re-encodes to the exact bytes it arrived as.
func FuzzConnParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		m, errID, perr := parse(in)
		if perr != nil {
			if errID.IsZero() {
				t.Fatalf("an error without an id to answer with: %v", perr)
			}
			if m != nil {
				t.Fatal("both a message and an error")
			}
			return
		}
		if m == nil {
			if len(bytes.TrimSpace(in)) != 0 {
				t.Fatalf("non-blank frame ignored: %q", in)
			}
			return
		}
		if !m.id.IsZero() {
			b, err := encodeResponse(m.id, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte(`"id":`+m.id.String()+`,`)) || !bytes.Contains(in, m.id.Raw()) {
				t.Fatalf("id %s not echoed exactly: %s", m.id, b)
			}
		}
	})
}
