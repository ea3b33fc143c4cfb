package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/tandemhq/tandem/agent/llm"
)

// observedTransport is the HTTP transport model requests go through: it
// logs each request's size and timing at debug level (never headers, so
// never a key) and turns the provider's retries into notices that say why
// and how many.
type observedTransport struct {
	base http.RoundTripper // modelTransport()
	log  *slog.Logger
	// notice tells the user about a retry; nil logs it as a warning.
	notice func(msg string)

	mu       sync.Mutex // guards the fields below
	lastFail string     // why the latest attempt failed
	fails    int        // failed attempts since the last success
}

func (o *observedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := o.base.RoundTrip(req)
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case err != nil:
		o.fails++
		o.lastFail = "connection failed"
		o.log.Debug("model http", "path", req.URL.Path, "request_bytes", req.ContentLength, "err", err, "after", time.Since(start))
		return nil, err
	case resp.StatusCode/100 != 2:
		o.fails++
		o.lastFail = fmt.Sprintf("HTTP %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	default:
		o.fails = 0
	}
	o.log.Debug("model http", "path", req.URL.Path, "request_bytes", req.ContentLength, "status", resp.StatusCode, "headers_after", time.Since(start))
	resp.Body = &timedBody{ReadCloser: resp.Body, start: start, log: o.log, path: req.URL.Path}
	return resp, nil
}

// retrySleep is the providers' RetryPolicy.Sleep: it says a retry is
// coming, with the reason and the attempt number, then waits.
func (o *observedTransport) retrySleep(ctx context.Context, d time.Duration) error {
	o.mu.Lock()
	msg := fmt.Sprintf("model request failed (%s); retry %d in %s", o.lastFail, o.fails, d.Round(100*time.Millisecond))
	o.mu.Unlock()
	if o.notice != nil {
		o.notice(msg)
	} else {
		o.log.Warn(msg)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// modelTransport is the standard transport with a larger read buffer: a
// streamed reply arrives as many small events, and each read of the
// connection takes as many of them as the buffer holds. Its connections
// take a request's body segments as they are (llm.SegmentDial).
func modelTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ReadBufferSize = 64 << 10
	t.DialContext = llm.SegmentDial(t.DialContext)
	return t
}

func (o *observedTransport) transport() llm.Transport {
	return llm.Transport{HTTPClient: &http.Client{Transport: o}, Retry: llm.RetryPolicy{Sleep: o.retrySleep}}
}

// timedBody logs how long a response stream lasted and how much it carried.
type timedBody struct {
	io.ReadCloser
	start time.Time
	log   *slog.Logger
	path  string
	n     int64
	once  sync.Once
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	return n, err
}

func (b *timedBody) Close() error {
	b.once.Do(func() {
		b.log.Debug("model http done", "path", b.path, "response_bytes", b.n, "duration", time.Since(b.start))
	})
	return b.ReadCloser.Close()
}
