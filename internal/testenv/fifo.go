package testenv

import (
	"bufio"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// openFifo makes a named pipe at path and holds it open for reading and
// writing until the test ends: opening it so never waits for a writer,
// and a writer that closes does not end what reads it. Not on Windows,
// whose named pipes live outside the file system.
func openFifo(t testing.TB, path string) *os.File {
	t.Helper()
	if err := Mkfifo(path); err != nil {
		t.Fatalf("testenv: mkfifo %s: %v", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("testenv: open %s: %v", path, err)
	}
	return f
}

// FifoLines makes a named pipe at path and returns the lines written to
// it, so a test waits for a child process to say it got somewhere (`echo
// ready > path`) instead of polling for a file. The channel closes when
// the test ends.
func FifoLines(t testing.TB, path string) <-chan string {
	t.Helper()
	f := openFifo(t, path)
	lines := make(chan string, 64)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(lines)
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		f.Close() // ends the read in flight
		for range lines {
		}
		wg.Wait()
	})
	return lines
}

// FifoLog makes a named pipe at path for a child process's log, so a
// test can wait for the log to say something instead of polling a file.
// What the log holds is read from the pipe when asked for: what a child
// wrote before it answered the test is there, without a reader racing.
func FifoLog(t testing.TB, path string) *PipeLog {
	t.Helper()
	l := &PipeLog{f: openFifo(t, path)}
	t.Cleanup(func() { l.f.Close() })
	return l
}

// PipeLog is what was written to a FifoLog's pipe.
type PipeLog struct {
	mu sync.Mutex // guards f's reads and b
	f  *os.File
	b  []byte
}

// String is everything written so far.
func (l *PipeLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.read(time.Now().Add(time.Millisecond)) // what is in the pipe now
	return string(l.b)
}

// Await reports whether the log comes to contain want, reading the pipe as
// it is written to; d only bounds a failure.
func (l *PipeLog) Await(d time.Duration, want string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	deadline := time.Now().Add(d)
	for !strings.Contains(string(l.b), want) {
		if !l.read(deadline) {
			return strings.Contains(string(l.b), want)
		}
	}
	return true
}

// read appends what arrives before deadline: the first piece, and what
// follows it at once. It reports whether anything came. l.mu is held.
func (l *PipeLog) read(deadline time.Time) bool {
	got := false
	var buf [4096]byte
	for {
		if l.f.SetReadDeadline(deadline) != nil {
			return got
		}
		n, err := l.f.Read(buf[:])
		l.b = append(l.b, buf[:n]...)
		got = got || n > 0
		if err != nil || n < len(buf) {
			return got
		}
		deadline = time.Now().Add(time.Millisecond) // the rest, if any, is there already
	}
}

// NextLine returns the next line from lines; d only bounds a failure,
// which stops the test naming what was awaited.
func NextLine(t testing.TB, lines <-chan string, d time.Duration, what string) string {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatalf("%s: the pipe closed", what)
		}
		return l
	case <-time.After(d):
		t.Fatalf("%s: nothing in %v", what, d)
	}
	return ""
}
