package lsp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
)

// clientReader is the client's byte stream as the jsonrpc.Conn reads it:
// the same frames, re-written with a clean header. It exists for two
// things LSP needs and the Conn's own Content-Length reader does not do:
//
//   - A header block it cannot use (a line without a colon, no or a bad
//     Content-Length) ends a jsonrpc connection. An editor's stray bytes
//     should not: such a block is skipped and passed on as a body that is
//     not JSON, which the Conn answers with a parse error (id null), and
//     reading goes on. Blank lines between frames are dropped.
//   - The Conn waits for its read loop after closing the reader (exit, a
//     signal). Closing a blocking stdin pipe does not interrupt a read in
//     progress, so the stream is read on a goroutine of its own and Close
//     returns the Conn's Read at once. That goroutine stops at its next
//     frame or at a read error, or with the process.
//
// Bodies pass through in pieces, so an oversized one is never held whole
// here; the Conn refuses it.
type clientReader struct {
	src    io.Reader
	log    *slog.Logger
	chunks chan []byte   // closed by pump when the stream ends
	err    error         // why it ended (nil: a clean end); set before chunks closes
	closed chan struct{} // closed by Close
	once   sync.Once
	cur    []byte // what Read has left of the current chunk
}

// bodyChunk is how much of a body pump hands over at once.
const bodyChunk = 64 << 10

func newClientReader(r io.Reader, log *slog.Logger) *clientReader {
	c := &clientReader{src: r, log: log, chunks: make(chan []byte), closed: make(chan struct{})}
	go c.pump()
	return c
}

// Read serves the Conn's read loop (one goroutine).
func (c *clientReader) Read(p []byte) (int, error) {
	for len(c.cur) == 0 {
		select {
		case b, ok := <-c.chunks:
			if !ok {
				if c.err != nil {
					return 0, c.err
				}
				return 0, io.EOF
			}
			c.cur = b
		case <-c.closed:
			return 0, io.EOF
		}
	}
	n := copy(p, c.cur)
	c.cur = c.cur[n:]
	return n, nil
}

// Close ends Read and closes the client's stream when it can be closed.
func (c *clientReader) Close() error {
	var err error
	c.once.Do(func() {
		close(c.closed)
		if cl, ok := c.src.(io.Closer); ok {
			err = cl.Close()
		}
	})
	return err
}

func (c *clientReader) emit(b []byte) bool {
	select {
	case c.chunks <- b:
		return true
	case <-c.closed:
		return false
	}
}

func (c *clientReader) pump() {
	defer close(c.chunks)
	r := bufio.NewReaderSize(c.src, bodyChunk)
	for {
		n, err := readHeader(r)
		var fe *frameError
		switch {
		case errors.As(err, &fe):
			c.log.Warn("skipping malformed frame", "err", err)
			body := "malformed frame: " + fe.msg // not JSON: a parse error
			if !c.emit(fmt.Appendf(nil, "Content-Length: %d\r\n\r\n%s", len(body), body)) {
				return
			}
			continue
		case err != nil:
			c.err = err
			return
		}
		if !c.emit(fmt.Appendf(nil, "Content-Length: %d\r\n\r\n", n)) {
			return
		}
		for n > 0 {
			buf := make([]byte, min(n, bodyChunk))
			k, err := io.ReadFull(r, buf)
			if k > 0 && !c.emit(buf[:k]) {
				return
			}
			if err != nil {
				c.err = io.ErrUnexpectedEOF
				return
			}
			n -= k
		}
	}
}

// frameError is a header block that cannot be used; the stream is
// positioned after it.
type frameError struct{ msg string }

func (e *frameError) Error() string { return "bad frame: " + e.msg }

// readHeader reads one header block and returns its Content-Length. A
// *frameError means the block was unusable; io.EOF is a clean end between
// frames; any other error ends the stream.
func readHeader(r *bufio.Reader) (int, error) {
	length := -1
	sawHeader := false
	var bad string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if err == io.EOF && line != "" {
				return 0, io.ErrUnexpectedEOF
			}
			return 0, err
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
			value = strings.TrimSpace(value)
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 {
				bad = fmt.Sprintf("Content-Length %q is not a length", trim(value))
				continue
			}
			length = n
		}
	}
	switch {
	case bad != "" && length < 0:
		return 0, &frameError{bad}
	case length < 0:
		return 0, &frameError{"missing Content-Length header"}
	}
	return length, nil
}

func trim(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
