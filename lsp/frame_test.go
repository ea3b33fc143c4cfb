package lsp

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestFrameReader feeds a stream of good and bad frames; bad ones are
// skipped with a *frameError and the good ones after them still arrive.
func TestFrameReader(t *testing.T) {
	stream := strings.Join([]string{
		"Content-Length: 2\r\n\r\n{}",
		"Content-Length: 20\r\n\r\n" + strings.Repeat("x", 20), // over the limit of 10
		"Content-Type: x\r\nContent-Length: 3\r\n\r\n[1]",
		"\r\n",                       // a stray blank line between frames
		"no colon here\r\n\r\n",      // no length
		"content-length: 1\n\n7",     // lower case and bare \n
		"Content-Length: -4\r\n\r\n", // not a length
		"Content-Length: 5\r\n\r\nab",
	}, "")
	f := newFrameReader(strings.NewReader(stream))
	f.max = 10
	want := []string{"{}", "bad", "[1]", "bad", "7", "bad", "EOF"}
	for i, w := range want {
		body, err := f.read()
		var fe *frameError
		got := string(body)
		switch {
		case errors.As(err, &fe):
			got = "bad"
		case errors.Is(err, io.ErrUnexpectedEOF):
			got = "EOF"
		case err != nil:
			t.Fatalf("frame %d: unexpected error %v", i, err)
		}
		if got != w {
			t.Errorf("frame %d = %q, want %q", i, got, w)
		}
	}
	if _, err := f.read(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last frame: %v, want io.EOF", err)
	}
}
