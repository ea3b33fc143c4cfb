package plugin

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// A write returns before the reader reads; the reader gets every byte in
// order, then the writer's close; a closed reader fails later writes.
func TestPipeBuffersInOrder(t *testing.T) {
	r, w := newPipe()
	var want bytes.Buffer
	for i := range 100 {
		line := bytes.Repeat([]byte{byte('a' + i%26)}, 1000+i)
		want.Write(line)
		if n, err := w.Write(line); n != len(line) || err != nil {
			t.Fatalf("write %d: %d, %v", i, n, err)
		}
	}
	w.Close()
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("read %d bytes (%v), want %d in order", len(got), err, want.Len())
	}

	r, w = newPipe()
	boom := errors.New("boom")
	r.CloseWithError(boom)
	if _, err := w.Write([]byte("x")); !errors.Is(err, boom) {
		t.Fatalf("write after the reader closed: %v, want boom", err)
	}

	// A writer past the bound waits for the reader, and goes on once it reads.
	r, w = newPipe()
	done := make(chan error, 1)
	go func() {
		_, err := w.Write(make([]byte, pipeBuffer))
		if err == nil {
			_, err = w.Write([]byte("more"))
		}
		w.CloseWithError(boom)
		done <- err
	}()
	n, err := io.Copy(io.Discard, r)
	if !errors.Is(err, boom) || n != pipeBuffer+4 {
		t.Fatalf("read %d bytes, %v; want %d then boom", n, err, pipeBuffer+4)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
