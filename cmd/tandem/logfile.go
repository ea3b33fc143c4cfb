package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/tandemhq/tandem/agent/config"
)

// maxLogBytes is where a log file is rotated: the old one becomes .1.
const maxLogBytes = 10 << 20

// logFile is $TANDEM_HOME/logs/<name>.log, where the servers editors start
// (acp, lsp) log as well as to stderr, because an editor's view of stderr is
// easy to lose. It is opened for appending by its first write, a file past
// maxLogBytes moved to <name>.log.1 first: at the default level most runs
// write nothing, and none waits for a mkdir, a stat and an open before its
// first answer. A failure to open is reported once and logging stays on
// stderr.
type logFile struct {
	getenv func(string) string
	name   string
	stderr io.Writer

	once sync.Once
	f    *os.File // nil until opened, or when it cannot be
}

func newLogFile(getenv func(string) string, name string, stderr io.Writer) *logFile {
	return &logFile{getenv: getenv, name: name, stderr: stderr}
}

// Write appends p to the file, opening it first if need be; p is dropped
// (and reported written) when the file cannot be opened.
func (l *logFile) Write(p []byte) (int, error) {
	l.once.Do(l.open)
	if l.f == nil {
		return len(p), nil
	}
	return l.f.Write(p)
}

// Close closes the file if it was opened; no Write may follow.
func (l *logFile) Close() error {
	l.once.Do(func() {}) // a Write racing with Close must not open it now
	if l.f == nil {
		return nil
	}
	return l.f.Close()
}

func (l *logFile) open() {
	home, err := config.Home(l.getenv)
	if err != nil {
		return
	}
	dir := filepath.Join(home, "logs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fmt.Fprintf(l.stderr, "tandem: no log file: %v\n", err)
		return
	}
	path := filepath.Join(dir, l.name+".log")
	if st, err := os.Stat(path); err == nil && st.Size() > maxLogBytes {
		os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintf(l.stderr, "tandem: no log file: %v\n", err)
		return
	}
	l.f = f
}

// logWriter is where log lines go: stderr, and the log file when there is one.
func (m *Main) logWriter() io.Writer {
	if m.LogFile == nil {
		return m.Stderr
	}
	return io.MultiWriter(m.Stderr, m.LogFile)
}
