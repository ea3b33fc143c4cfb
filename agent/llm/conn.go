package llm

import (
	"context"
	"io"
	"net"
)

// DialFunc is an http.Transport's DialContext.
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// SegmentDial wraps a transport's dial so that the body Post sends (its
// segments, as net.Buffers) goes onto a plain HTTP/1 connection as it is,
// in one writev. net/http copies a request body through a buffer it
// allocates for every request (its copy sees the body only behind an
// io.LimitedReader): the size of the body, up to 32 KiB, each step of a
// turn, most of what a local model server's turn left to collect. A nil
// dial is net.Dialer's. TLS wraps the connection this returns, so HTTPS
// is sent as before.
func SegmentDial(dial DialFunc) DialFunc {
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return segmentConn{c}, nil
	}
}

// segmentConn is a connection whose ReadFrom writes a body of segments
// without a copy.
type segmentConn struct{ net.Conn }

// ReadFrom writes r to the connection: segments that fit r's limit (all
// of a body whose length was declared) straight from their memory,
// anything else as the connection itself would.
func (c segmentConn) ReadFrom(r io.Reader) (int64, error) {
	if lr, ok := r.(*io.LimitedReader); ok {
		if body, ok := lr.R.(*segments); ok && body.len() <= lr.N {
			n, err := body.WriteTo(c.Conn)
			lr.N -= n
			return n, err
		}
	}
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}

// segments is a request body Post sends: its segments read in turn, or
// written as they are by a segmentConn. Reading consumes the list, not
// the bytes.
type segments struct{ net.Buffers }

func (s *segments) Close() error { return nil }

func (s *segments) len() int64 {
	var n int64
	for _, b := range s.Buffers {
		n += int64(len(b))
	}
	return n
}
