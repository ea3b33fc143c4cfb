//go:build unix

package jsonrpc

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"
)

// BenchmarkReadFrames measures the inbound path of a Conn (reading,
// framing, parsing and dispatching) for many small notifications, the
// shape of a streamed reply, in both framings. One op is one frame.
func BenchmarkReadFrames(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","method":"chunk","params":{"sessionId":"s1","text":"a few words of streamed text"}}`)
	for _, f := range []struct {
		name string
		f    Framing
	}{{"lines", NewlineDelimited}, {"content-length", ContentLength}} {
		for _, perRead := range []bool{false, true} {
			name := f.name + "/bulk"
			if perRead {
				name = f.name + "/frame-per-read"
			}
			b.Run(name, func(b *testing.B) {
				one := frame(f.f, body)
				in := bytes.Repeat(one, b.N)
				var r io.Reader = bytes.NewReader(in)
				if perRead {
					r = &chunkReader{b: in, n: len(one)}
				}
				seen := 0
				c := NewConn(r, io.Discard, Options{Framing: f.f,
					Handler: func(context.Context, *Request) (any, error) { seen++; return nil, nil },
					Inline:  func(string) bool { return true }})
				b.SetBytes(int64(len(one)))
				b.ReportAllocs()
				b.ResetTimer()
				cpu := cpuTime()
				if err := c.Serve(context.Background()); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
				if seen != b.N {
					b.Fatal(fmt.Sprintf("handled %d of %d frames", seen, b.N))
				}
			})
		}
	}
}

// cpuTime is the CPU time the process has used, user and system: the
// budget issue 21 sets is CPU per chunk, which wall time on a busy machine
// does not show.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// chunkReader returns at most n bytes per Read, as a pipe does when the
// peer writes one frame at a time.
type chunkReader struct {
	b []byte
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.b)
	c.b = c.b[k:]
	return k, nil
}

// BenchmarkFrameReader measures splitting the stream alone, without
// parsing: the part of the cost that is the wire layer's.
func BenchmarkFrameReader(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","method":"chunk","params":{"sessionId":"s1","text":"a few words of streamed text"}}`)
	for _, f := range []struct {
		name string
		f    Framing
	}{{"lines", NewlineDelimited}, {"content-length", ContentLength}} {
		b.Run(f.name, func(b *testing.B) {
			one := frame(f.f, body)
			fr := newFrameReader(f.f, bytes.NewReader(bytes.Repeat(one, b.N)), DefaultMaxMessage)
			b.SetBytes(int64(len(one)))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if raw, _, err := fr.next(); err != nil || len(bytes.TrimSpace(raw)) != len(body) {
					b.Fatalf("frame of %d bytes, err %v", len(raw), err)
				}
			}
		})
	}
}
