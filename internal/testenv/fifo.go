package testenv

import (
	"bufio"
	"io"
	"os"
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

// FifoLog makes a named pipe at path and collects what is written to it,
// so a test can wait for a child process's log to say something
// (SyncBuffer.Await) instead of polling a file.
func FifoLog(t testing.TB, path string) *SyncBuffer {
	t.Helper()
	f := openFifo(t, path)
	log := &SyncBuffer{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(log, f)
	}()
	t.Cleanup(func() {
		f.Close() // ends the read in flight
		<-done
	})
	return log
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
