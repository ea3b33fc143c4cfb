package main

import (
	"bytes"
	"context"
	"io"
	"sync"
)

// keyboard is the one reader of a terminal's input. A goroutine pumps what
// the terminal sends into a channel, so a question can stop waiting when
// its turn is cancelled, and the conversation loop's line editor and the
// permission prompts take turns at the same input without either keeping
// bytes the other needs. A read from a terminal cannot be interrupted, so
// the pump ends at EOF, on a read error, or with the process; it starts on
// the first read, never before.
type keyboard struct {
	r      io.Reader
	once   sync.Once
	chunks chan []byte // closed after the last chunk; err says why
	err    error       // written before chunks is closed

	buf bytes.Buffer // read from chunks, not yet consumed; one consumer at a time
}

func newKeyboard(r io.Reader) *keyboard {
	return &keyboard{r: r, chunks: make(chan []byte)}
}

func (k *keyboard) pump() {
	for {
		b := make([]byte, 4096)
		n, err := k.r.Read(b)
		if n > 0 {
			k.chunks <- b[:n]
		}
		if err != nil {
			k.err = err
			close(k.chunks)
			return
		}
	}
}

// next waits for the next chunk of input, the end of it, or ctx.
func (k *keyboard) next(ctx context.Context) error {
	k.once.Do(func() { go k.pump() })
	select {
	case b, ok := <-k.chunks:
		if !ok {
			return k.err
		}
		k.buf.Write(b)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Read serves the line editor: what is buffered, else the next chunk.
func (k *keyboard) Read(p []byte) (int, error) {
	if k.buf.Len() == 0 {
		if err := k.next(context.Background()); err != nil {
			return 0, err
		}
	}
	return k.buf.Read(p)
}

// readLine returns the next line (with its newline; a last line may lack
// one), io.EOF at the end of input, or ctx's error when ctx ends first.
func (k *keyboard) readLine(ctx context.Context) (string, error) {
	for {
		if i := bytes.IndexAny(k.buf.Bytes(), "\r\n"); i >= 0 {
			line := string(k.buf.Next(i + 1))
			if line[i] == '\r' && k.buf.Len() > 0 && k.buf.Bytes()[0] == '\n' {
				k.buf.Next(1)
			}
			return line, nil
		}
		if err := k.next(ctx); err != nil {
			if err == io.EOF && k.buf.Len() > 0 {
				line := k.buf.String()
				k.buf.Reset()
				return line, nil
			}
			return "", err
		}
	}
}
