package llm_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
)

// A stream read up to its last event, not to its end, still leaves the
// connection for the next request: a turn's requests share one.
func TestPostStreamKeepsTheConnection(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: done\ndata: {}\n\n")
		w.(http.Flusher).Flush()
		// The end of the body (the chunked terminator) comes a moment
		// after the last event, as from a real server.
		time.Sleep(5 * time.Millisecond)
	}))
	var conns atomic.Int32
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{}}
	for range 3 {
		_, err := llm.PostStream(context.Background(), llm.HTTPRequest{Transport: llm.Transport{HTTPClient: client}, Provider: "test", URL: srv.URL},
			func(body io.Reader) (*llm.Response, error) {
				// Read the first event only, as a provider stops at its stop event.
				br := bufio.NewReader(body)
				for {
					line, err := br.ReadString('\n')
					if err != nil {
						return nil, err
					}
					if strings.TrimSpace(line) == "" {
						return &llm.Response{}, nil
					}
				}
			})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("3 streamed requests opened %d connections, want 1", n)
	}
}
