package main

import (
	"bufio"
	"context"
	"io"
	"sync"
)

// lineReader reads answers from the terminal without making a cancelled
// turn wait for the user: one goroutine reads lines and hands them over,
// and a reader gives up when its context ends. A read from a terminal
// cannot be interrupted, so the goroutine ends at EOF, on a read error, or
// with the process; it starts on the first question, never before.
type lineReader struct {
	r     io.Reader
	once  sync.Once
	lines chan string // closed after the last line; err says why
	err   error       // written before lines is closed
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: r, lines: make(chan string)}
}

func (l *lineReader) run() {
	br := bufio.NewReader(l.r)
	for {
		s, err := br.ReadString('\n')
		if s != "" {
			l.lines <- s // a last line without a newline still counts
		}
		if err != nil {
			l.err = err
			close(l.lines)
			return
		}
	}
}

// readLine returns the next line, io.EOF at the end of input, or ctx's
// error when the context ends first.
func (l *lineReader) readLine(ctx context.Context) (string, error) {
	l.once.Do(func() { go l.run() })
	select {
	case s, ok := <-l.lines:
		if !ok {
			return "", l.err
		}
		return s, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
