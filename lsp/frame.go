package lsp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxFrame caps one message body. A larger frame is skipped and answered
// with an error; the connection stays up.
const maxFrame = 64 << 20

// frameError is a malformed frame: the reader skipped it and can go on.
type frameError struct{ msg string }

func (e *frameError) Error() string { return "bad frame: " + e.msg }

// frameReader reads Content-Length framed bodies.
type frameReader struct {
	r   *bufio.Reader
	max int // largest body accepted
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, 64<<10), max: maxFrame}
}

// read returns the next body. A *frameError means the frame was unusable
// and the stream is positioned after it; any other error ends the stream.
func (f *frameReader) read() ([]byte, error) {
	length := -1
	sawHeader := false
	var bad string
	for {
		line, err := f.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && line != "" {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !sawHeader {
				continue // stray blank lines between frames are harmless
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			bad = fmt.Sprintf("header line %q has no colon", trim(line))
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				bad = fmt.Sprintf("Content-Length %q is not a length", trim(value))
				continue
			}
			length = n
		}
	}
	if bad != "" && length < 0 {
		return nil, &frameError{bad}
	}
	if length < 0 {
		return nil, &frameError{"missing Content-Length header"}
	}
	if length > f.max {
		if _, err := f.r.Discard(length); err != nil {
			return nil, err
		}
		return nil, &frameError{fmt.Sprintf("body of %d bytes exceeds the %d byte limit", length, f.max)}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(f.r, body); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

func trim(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// writeFrame writes one framed body in a single Write call so frames never
// interleave on the wire (callers hold the connection's write lock anyway).
func writeFrame(w io.Writer, body []byte) error {
	buf := make([]byte, 0, len(body)+32)
	buf = append(buf, "Content-Length: "...)
	buf = strconv.AppendInt(buf, int64(len(body)), 10)
	buf = append(buf, "\r\n\r\n"...)
	buf = append(buf, body...)
	_, err := w.Write(buf)
	return err
}
