package llm_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
)

// A body of segments reaches the server whole through SegmentDial's
// connections, request after request on one kept-alive connection, and
// each request leaves far less garbage than through the plain transport,
// which copies the body through a buffer of its own every time.
func TestSegmentDialSendsBodyWithoutCopyBuffer(t *testing.T) {
	segs := [][]byte{bytes.Repeat([]byte("h"), 9000), bytes.Repeat([]byte("m"), 14000), []byte("]}")}
	want := sha256.Sum256(bytes.Join(segs, nil))
	var mu sync.Mutex // guards buf and bad: the server's handlers
	buf := make([]byte, 64<<10)
	bad := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		h := sha256.New()
		if _, err := io.CopyBuffer(struct{ io.Writer }{h}, r.Body, buf); err != nil || r.ContentLength != 23002 || [32]byte(h.Sum(nil)) != want {
			bad++
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: {}\n\n")
	}))
	defer srv.Close()
	post := func(client *http.Client) {
		resp, err := llm.Post(context.Background(), llm.HTTPRequest{Provider: "openai", URL: srv.URL, Body: segs, Transport: llm.Transport{HTTPClient: client}})
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	allocated := func(dial llm.DialFunc) uint64 {
		tr := &http.Transport{DialContext: dial}
		defer tr.CloseIdleConnections()
		client := &http.Client{Transport: tr}
		post(client) // the connection and its buffers
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const n = 20
		for range n {
			post(client)
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / n
	}
	plain, segmented := allocated(nil), allocated(llm.SegmentDial(nil))
	mu.Lock()
	defer mu.Unlock()
	if bad > 0 {
		t.Fatalf("%d bodies arrived changed", bad)
	}
	t.Logf("bytes allocated a request: %d through SegmentDial, %d without", segmented, plain)
	if plain < segmented+16<<10 {
		t.Errorf("a request allocated %d bytes through SegmentDial, %d without: want the body's copy (23 KB) gone", segmented, plain)
	}
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
