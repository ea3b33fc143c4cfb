package lsp

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestClientReader feeds a stream of good and bad frames: good ones come
// out with a clean header, bad ones as a body that is not JSON, and the
// good ones after them still arrive.
func TestClientReader(t *testing.T) {
	stream := strings.Join([]string{
		"Content-Length: 2\r\n\r\n{}",
		"Content-Type: x\r\nContent-Length: 3\r\n\r\n[1]",
		"\r\n",                       // a stray blank line between frames
		"no colon here\r\n\r\n",      // no length
		"content-length: 1\n\n7",     // lower case and bare \n
		"Content-Length: -4\r\n\r\n", // not a length
		"Content-Length: 5\r\n\r\nab",
	}, "")
	c := newClientReader(strings.NewReader(stream), slog.New(slog.DiscardHandler))
	got, err := io.ReadAll(c)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a body cut short ended the stream with %v, want io.ErrUnexpectedEOF", err)
	}
	want := strings.Join([]string{
		"Content-Length: 2\r\n\r\n{}",
		"Content-Length: 3\r\n\r\n[1]",
		framed(`malformed frame: header line "no colon here" has no colon`),
		"Content-Length: 1\r\n\r\n7",
		framed(`malformed frame: Content-Length "-4" is not a length`),
		"Content-Length: 5\r\n\r\nab",
	}, "")
	if string(got) != want {
		t.Errorf("re-framed stream:\n%q\nwant\n%q", got, want)
	}
}

// TestClientReaderClose: Close ends a Read that waits on a stream which
// closing cannot interrupt (a blocking stdin pipe).
func TestClientReaderClose(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	c := newClientReader(struct{ io.Reader }{r}, slog.New(slog.DiscardHandler)) // hides Close
	done := make(chan error, 1)
	go func() {
		_, err := c.Read(make([]byte, 8))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	c.Close()
	select {
	case err := <-done:
		if !errors.Is(err, io.EOF) {
			t.Errorf("Read after Close: %v, want io.EOF", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end a blocked Read")
	}
}

func framed(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
