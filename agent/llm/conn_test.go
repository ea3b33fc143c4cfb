package llm_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
)

// A body of segments reaches the server whole through SegmentDial's
// connections, request after request on one kept-alive connection, and
// leaves as the segments themselves: the connection is handed a segment's
// own bytes in one write, where the plain transport copies the body
// through a buffer of its own, which no write of a whole segment shows.
// (Allocation totals were the first check here: they count the test
// server's garbage too, and moved by more than the copy under -race.)
func TestSegmentDialSendsBodyWithoutCopyBuffer(t *testing.T) {
	segs := [][]byte{bytes.Repeat([]byte("h"), 9000), bytes.Repeat([]byte("m"), 14000), []byte("]}")}
	want := sha256.Sum256(bytes.Join(segs, nil))
	var mu sync.Mutex // guards bad: the server's handlers
	bad := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := sha256.New()
		_, err := io.Copy(struct{ io.Writer }{h}, r.Body)
		mu.Lock()
		if err != nil || r.ContentLength != 23002 || [32]byte(h.Sum(nil)) != want {
			bad++
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: {}\n\n")
	}))
	defer srv.Close()
	// wholeWrites counts the connection's writes that are exactly the
	// middle segment, over three requests.
	wholeWrites := func(segmented bool) int {
		w := &writeLog{seg: segs[1]}
		dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &loggedConn{Conn: c, log: w}, nil
		}
		if segmented {
			dial = llm.SegmentDial(dial)
		}
		tr := &http.Transport{DialContext: dial}
		defer tr.CloseIdleConnections()
		for range 3 {
			resp, err := llm.Post(context.Background(), llm.HTTPRequest{Provider: "openai", URL: srv.URL, Body: segs, Transport: llm.Transport{HTTPClient: &http.Client{Transport: tr}}})
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return w.whole()
	}
	plain, segmented := wholeWrites(false), wholeWrites(true)
	mu.Lock()
	defer mu.Unlock()
	if bad > 0 {
		t.Fatalf("%d bodies arrived changed", bad)
	}
	if segmented != 3 || plain != 0 {
		t.Errorf("writes of the whole 14000-byte segment: %d through SegmentDial (want 3, one a request), %d without (want 0: copied through a buffer)", segmented, plain)
	}
}

// writeLog counts writes that are exactly seg.
type writeLog struct {
	seg []byte
	mu  sync.Mutex
	n   int
}

func (w *writeLog) saw(p []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if bytes.Equal(p, w.seg) {
		w.n++
	}
}

func (w *writeLog) whole() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

// loggedConn is a connection that reports its writes. It has no
// ReadFrom or writev of its own, so what is handed to it is what it
// writes.
type loggedConn struct {
	net.Conn
	log *writeLog
}

func (c *loggedConn) Write(p []byte) (int, error) {
	c.log.saw(p)
	return c.Conn.Write(p)
}

// Over HTTPS TLS wraps SegmentDial's connection: the body arrives the
// same, written through TLS as before.
func TestSegmentDialUnderTLS(t *testing.T) {
	segs := [][]byte{[]byte(`{"a":`), bytes.Repeat([]byte("x"), 40000), []byte(`}`)}
	want := bytes.Join(segs, nil)
	var mu sync.Mutex // guards got: the server's handler
	var got []byte
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = b
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: {}\n\n")
	}))
	defer srv.Close()
	tr := srv.Client().Transport.(*http.Transport).Clone()
	tr.DialContext = llm.SegmentDial(tr.DialContext)
	defer tr.CloseIdleConnections()
	resp, err := llm.Post(context.Background(), llm.HTTPRequest{Provider: "openai", URL: srv.URL, Body: segs, Transport: llm.Transport{HTTPClient: &http.Client{Transport: tr}}})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	mu.Lock()
	defer mu.Unlock()
	if !bytes.Equal(got, want) {
		t.Errorf("the server read %d bytes, want the %d sent", len(got), len(want))
	}
}
