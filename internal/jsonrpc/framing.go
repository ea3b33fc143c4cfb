package jsonrpc

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Framing is how messages are delimited on the byte stream.
type Framing int

const (
	// NewlineDelimited: one JSON message per line (ACP, plugins). JSON
	// encoding escapes newlines inside strings, so a line is a message.
	NewlineDelimited Framing = iota
	// ContentLength: "Content-Length: N\r\n\r\n" then N bytes (LSP).
	ContentLength
)

// ErrFraming is returned by Serve when the byte stream cannot be split into
// messages any more (a Content-Length header block that is unreadable).
var ErrFraming = errors.New("jsonrpc: broken framing")

// headKeep is how much of an oversized frame is kept to find its id.
const headKeep = 4096

// frameReader yields one frame at a time. When a frame is longer than max,
// frame holds only its first bytes and size says how long it was.
type frameReader interface {
	next() (frame []byte, size int, err error)
}

func newFrameReader(f Framing, r io.Reader, max int) frameReader {
	br := bufio.NewReaderSize(r, 64<<10)
	if f == ContentLength {
		return &headerReader{r: br, max: max}
	}
	return &lineReader{r: br, max: max}
}

type lineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

func (l *lineReader) next() ([]byte, int, error) {
	if cap(l.buf) > 1<<20 {
		l.buf = nil // do not pin a big buffer after one big message
	}
	line, size := l.buf[:0], 0
	for {
		chunk, err := l.r.ReadSlice('\n')
		size += len(chunk)
		switch {
		case size <= l.max+1: // the newline does not count
			line = append(line, chunk...)
		case len(line) < headKeep:
			line = append(line, chunk[:min(len(chunk), headKeep-len(line))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		l.buf = line
		if n := len(chunk); n > 0 && chunk[n-1] == '\n' {
			size--
		}
		if err != nil && size > 0 && errors.Is(err, io.EOF) {
			return line, size, nil // a last line without its newline
		}
		return line, size, err
	}
}

type headerReader struct {
	r   *bufio.Reader
	max int
}

func (h *headerReader) next() ([]byte, int, error) {
	length, err := h.header()
	if err != nil {
		return nil, 0, err
	}
	if length <= h.max {
		frame := make([]byte, length)
		if _, err := io.ReadFull(h.r, frame); err != nil {
			return nil, 0, fmt.Errorf("%w: body cut short: %v", ErrFraming, err)
		}
		return frame, length, nil
	}
	head := make([]byte, min(length, headKeep))
	if _, err := io.ReadFull(h.r, head); err != nil {
		return nil, 0, fmt.Errorf("%w: body cut short: %v", ErrFraming, err)
	}
	if _, err := io.CopyN(io.Discard, h.r, int64(length-len(head))); err != nil {
		return nil, 0, fmt.Errorf("%w: body cut short: %v", ErrFraming, err)
	}
	return head, length, nil
}

// header reads one header block and returns its Content-Length. io.EOF
// before any header byte is a clean end of input.
func (h *headerReader) header() (int, error) {
	length, lines := -1, 0
	for {
		line, err := h.r.ReadSlice('\n')
		if err != nil {
			if errors.Is(err, io.EOF) && lines == 0 && len(line) == 0 {
				return 0, io.EOF
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				return 0, fmt.Errorf("%w: header line too long", ErrFraming)
			}
			return 0, fmt.Errorf("%w: header cut short: %v", ErrFraming, err)
		}
		lines++
		text := strings.TrimRight(string(line), "\r\n")
		if text == "" {
			if length < 0 {
				return 0, fmt.Errorf("%w: header without Content-Length", ErrFraming)
			}
			return length, nil
		}
		name, value, ok := strings.Cut(text, ":")
		if !ok {
			return 0, fmt.Errorf("%w: header line %q has no colon", ErrFraming, text)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				return 0, fmt.Errorf("%w: bad Content-Length %q", ErrFraming, value)
			}
			length = n
		}
	}
}

// frame wraps one encoded message for the wire.
func frame(f Framing, body []byte) []byte {
	if f == ContentLength {
		hdr := "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
		out := make([]byte, 0, len(hdr)+len(body))
		return append(append(out, hdr...), body...)
	}
	out := make([]byte, 0, len(body)+1)
	return append(append(out, body...), '\n')
}
