package llm_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
)

func TestSSEReader(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 5<<10) // 80 KiB: ten times the reader's buffer
	tests := []struct {
		name string
		in   string
		want []llm.SSEEvent
		err  error // after the events
	}{
		{"named events", "event: a\ndata: {\"x\":1}\n\nevent: b\ndata: 2\n\n",
			[]llm.SSEEvent{{Name: "a", Data: []byte(`{"x":1}`)}, {Name: "b", Data: []byte("2")}}, io.EOF},
		{"CRLF, comments, no space, multi-line data", ": ping\r\n\r\ndata:one\r\ndata: two\r\nid: 7\r\n\r\n",
			[]llm.SSEEvent{{Data: []byte("one\ntwo")}}, io.EOF},
		{"blank lines between events", "\n\n\ndata: x\n\n\n", []llm.SSEEvent{{Data: []byte("x")}}, io.EOF},
		{"cut inside data line", "data: ok\n\ndata: {\"a\":", []llm.SSEEvent{{Data: []byte("ok")}}, llm.ErrSSETruncated},
		{"cut before the blank line", "event: x\ndata: {}\n", nil, llm.ErrSSETruncated},
		{"lines longer than the reader's buffer", "data: " + long + "\r\ndata: " + long + "\n\nevent: e\ndata: z\n\n",
			[]llm.SSEEvent{{Data: []byte(long + "\n" + long)}, {Name: "e", Data: []byte("z")}}, io.EOF},
		{"cut inside a long line", "data: " + long, nil, llm.ErrSSETruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := llm.NewSSEReader(strings.NewReader(tt.in))
			var got []llm.SSEEvent
			for {
				ev, err := r.Next()
				if err != nil {
					if !errors.Is(err, tt.err) {
						t.Errorf("final error = %v, want %v", err, tt.err)
					}
					break
				}
				got = append(got, ev)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d events %q, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				if got[i].Name != tt.want[i].Name || string(got[i].Data) != string(tt.want[i].Data) {
					t.Errorf("event %d = %q %q, want %q %q", i, got[i].Name, got[i].Data, tt.want[i].Name, tt.want[i].Data)
				}
			}
		})
	}
}

// A lent reader given back in the middle of an event reads the next
// stream from its start: nothing of the first stream's buffered bytes or
// half-read event is left in it.
func TestSSEBuffersLendCleanReaders(t *testing.T) {
	var bufs llm.SSEBuffers
	first := bufs.Reader(strings.NewReader("event: a\ndata: 1\n\nevent: half\ndata: cut\ndata: more\n\nleft over"))
	if ev, err := first.Next(); err != nil || ev.Name != "a" || string(ev.Data) != "1" {
		t.Fatalf("first stream: %q %q, %v", ev.Name, ev.Data, err)
	}
	first.Close()
	for range 3 {
		s := bufs.Reader(strings.NewReader("data: 2\n\n"))
		ev, err := s.Next()
		if err != nil || ev.Name != "" || string(ev.Data) != "2" {
			t.Fatalf("next stream: %q %q, %v", ev.Name, ev.Data, err)
		}
		if _, err := s.Next(); !errors.Is(err, io.EOF) {
			t.Fatalf("next stream's end: %v, want EOF", err)
		}
		s.Close()
	}
	var none *llm.SSEBuffers
	s := none.Reader(strings.NewReader("data: 3\n\n"))
	if ev, err := s.Next(); err != nil || string(ev.Data) != "3" {
		t.Fatalf("reader of nil buffers: %q, %v", ev.Data, err)
	}
	s.Close()
}

// An event costs one allocation, its data's copy: a name the stream
// repeats is not copied again for each event.
func TestSSEReaderRepeatedNameIsNotCopied(t *testing.T) {
	const events = 100
	in := strings.Repeat("event: content_block_delta\ndata: {\"x\":1}\n\n", events)
	var s *llm.SSEReader
	r := strings.NewReader(in)
	allocs := testing.AllocsPerRun(5, func() {
		r.Reset(in)
		s = llm.NewSSEReader(r)
		for range events {
			if ev, err := s.Next(); err != nil || ev.Name != "content_block_delta" {
				t.Fatalf("event: %q, %v", ev.Name, err)
			}
		}
	})
	if per := allocs / events; per > 1.1 {
		t.Errorf("%.2f allocations an event, want 1 (its data)", per)
	}
}
