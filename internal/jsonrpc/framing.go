package jsonrpc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
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
// messages any more: the input ended inside a Content-Length frame. An
// unusable header block is not the end (see headerReader).
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

// headerReader splits LSP's framing. A header block it cannot use (a line
// without a colon, a Content-Length that is not a length, a block without
// one, a line over the buffer) is reported as a *headerError at once, and
// the reader resynchronises: it skips input up to the end of that block
// (its blank line) or up to the next line that starts with
// "Content-Length:", whichever comes first; that line begins the next
// block. Blank lines between frames are skipped silently. Only input that
// ends inside a frame is ErrFraming.
type headerReader struct {
	r        *bufio.Reader
	max      int
	buf      []byte // the last body, reused: parse copies what it keeps
	skipping bool   // after an unusable block, until the place to resume
	midLine  bool   // the last read stopped inside an over-long line
}

// headerError is a header block that could not be used; the connection
// answers it with a parse error and goes on reading.
type headerError struct{ reason string }

func (e *headerError) Error() string { return "jsonrpc: unusable header block: " + e.reason }

func (h *headerReader) next() ([]byte, int, error) {
	length, err := h.header()
	if err != nil {
		return nil, 0, err
	}
	if length <= h.max {
		if cap(h.buf) < length || cap(h.buf) > 1<<20 {
			h.buf = make([]byte, length, max(length, 4096))
		}
		frame := h.buf[:length]
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

var contentLength = []byte("Content-Length")

// header reads one header block and returns its Content-Length. io.EOF
// before any header byte (or while skipping a block already refused) is a
// clean end of input.
func (h *headerReader) header() (int, error) {
	length, lines := -1, 0
	for {
		line, err := h.r.ReadSlice('\n')
		tail := h.midLine // line continues one already refused as too long
		h.midLine = errors.Is(err, bufio.ErrBufferFull)
		if err != nil && !h.midLine {
			if errors.Is(err, io.EOF) && (h.skipping || lines == 0 && len(line) == 0) {
				return 0, io.EOF
			}
			return 0, fmt.Errorf("%w: header cut short: %v", ErrFraming, err)
		}
		if h.midLine || tail {
			if h.skipping || tail {
				continue
			}
			h.skipping = true
			return 0, &headerError{"a header line is too long"}
		}
		text := bytes.TrimRight(line, "\r\n")
		if h.skipping {
			if len(text) == 0 {
				h.skipping = false // the refused block ends here
				continue
			}
			if len(text) < len(contentLength)+1 || !bytes.EqualFold(text[:len(contentLength)], contentLength) || text[len(contentLength)] != ':' {
				continue
			}
			h.skipping = false
		}
		if len(text) == 0 {
			switch {
			case lines == 0:
				continue // blank lines between frames are harmless
			case length < 0:
				return 0, &headerError{"the header block has no Content-Length"}
			}
			return length, nil
		}
		lines++
		name, value, ok := bytes.Cut(text, []byte{':'})
		if !ok {
			h.skipping = true
			return 0, &headerError{"a header line has no colon"}
		}
		if bytes.EqualFold(bytes.TrimSpace(name), contentLength) {
			n, ok := parseLength(bytes.TrimSpace(value))
			if !ok {
				h.skipping = true
				return 0, &headerError{"the Content-Length is not a length"}
			}
			length = n
		}
	}
}

// parseLength reads a decimal length without allocating; it refuses signs,
// spaces and anything over a gigabyte's worth of digits.
func parseLength(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 12 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// frame wraps one encoded message for the wire.
func frame(f Framing, body []byte) []byte {
	if f == ContentLength {
		hdr := "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
		out := make([]byte, 0, len(hdr)+len(body))
		return append(append(out, hdr...), body...)
	}
	if cap(body) > len(body) { // the encoders leave room: no copy
		return append(body, '\n')
	}
	out := make([]byte, 0, len(body)+1)
	return append(append(out, body...), '\n')
}
