package llm

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
)

// SSEEvent is one server-sent event: the optional event name and its data
// lines joined with "\n".
type SSEEvent struct {
	Name string
	Data []byte
}

// SSEReader splits a text/event-stream body into events. It keeps no state
// beyond the current event, so a provider can stop reading at any point.
type SSEReader struct {
	r      *bufio.Reader
	name   string
	data   bytes.Buffer
	last   string      // the event name read last
	seen   bool        // a field of the current event was read
	lender *SSEBuffers // where Close gives it back; nil: nowhere
}

// sseBuffer is the reader's buffer: a stream's lines are short, a longer
// one is gathered piece by piece (line). Every request makes one, so it
// is kept small: over a long session's turns a large one was most of the
// garbage each turn left.
const sseBuffer = 8 << 10

// NewSSEReader reads events from r.
func NewSSEReader(r io.Reader) *SSEReader {
	return &SSEReader{r: bufio.NewReaderSize(r, sseBuffer)}
}

// SSEBuffers lends readers, their buffers with them, to a provider's
// response streams, one after another or side by side, and takes each back
// when its stream is read: a new reader's buffer for every request was a
// good part of what a tool step left to collect. The zero value is ready;
// a provider keeps one for its streams.
type SSEBuffers struct{ free sync.Pool }

// Reader returns a reader of events from r; Close gives it back. A nil
// b gives a new reader every time.
func (b *SSEBuffers) Reader(r io.Reader) *SSEReader {
	if b == nil {
		return NewSSEReader(r)
	}
	s, _ := b.free.Get().(*SSEReader)
	if s == nil {
		s = NewSSEReader(r)
	} else {
		s.r.Reset(r)
	}
	s.lender = b
	return s
}

// Close gives a lent reader back, with its buffers: the caller uses
// neither it nor any line it read after. Events it returned are the
// caller's own (their data is a copy). Close of a reader from
// NewSSEReader does nothing.
func (s *SSEReader) Close() {
	b := s.lender
	if b == nil {
		return
	}
	s.r.Reset(nil)
	s.name, s.seen, s.lender = "", false, nil
	s.data.Reset()
	b.free.Put(s)
}

// line reads the next line, its newline included, as ReadBytes does, but
// without copying it when it fits the buffer: the bytes are valid until
// the next read.
func (s *SSEReader) line() ([]byte, error) {
	line, err := s.r.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line, err
	}
	long := bytes.Clone(line)
	for errors.Is(err, bufio.ErrBufferFull) {
		line, err = s.r.ReadSlice('\n')
		long = append(long, line...)
	}
	return long, err
}

// ErrSSETruncated means the stream ended inside an event: the server or the
// connection went away mid-message.
var ErrSSETruncated = errors.New("event stream ended in the middle of an event")

// Next returns the next event. At a clean end of stream it returns io.EOF;
// if the stream stops inside an event it returns ErrSSETruncated (wrapping
// the read error when there was one).
func (s *SSEReader) Next() (SSEEvent, error) {
	for {
		line, err := s.line()
		if err != nil {
			// A final line without its newline is never a complete event.
			if len(line) > 0 || s.seen {
				if errors.Is(err, io.EOF) {
					return SSEEvent{}, ErrSSETruncated
				}
				return SSEEvent{}, errors.Join(ErrSSETruncated, err)
			}
			return SSEEvent{}, err
		}
		line = trimEOL(line)
		if len(line) == 0 {
			if !s.seen {
				continue
			}
			ev := SSEEvent{Name: s.name, Data: bytes.Clone(s.data.Bytes())}
			s.name, s.seen = "", false
			s.data.Reset()
			return ev, nil
		}
		if line[0] == ':' { // comment / keep-alive
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			// A stream names most events alike (Anthropic's every
			// delta): the name read last is kept rather than copied
			// out of the line again.
			if string(value) != s.last {
				s.last = string(value)
			}
			s.name, s.seen = s.last, true
		case "data":
			if s.data.Len() > 0 {
				s.data.WriteByte('\n')
			}
			s.data.Write(value)
			s.seen = true
		}
		// id and retry are of no use to a one-shot request; other fields are ignored per spec.
	}
}

// trimEOL drops the line's end: "\n", "\r\n" or any run of them (what
// bytes.TrimRight with that cutset does, without building the set for
// every line of a stream).
func trimEOL(line []byte) []byte {
	for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
		line = line[:len(line)-1]
	}
	return line
}
