package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tandemhq/tandem/agent/config"
)

// maxLogBytes is where a log file is rotated: the old one becomes .1.
const maxLogBytes = 10 << 20

// openLogFile opens $TANDEM_HOME/logs/<name>.log for appending, moving a
// file past maxLogBytes to <name>.log.1 first. The servers editors start
// (acp, lsp) log there as well as to stderr, because an editor's view of
// stderr is easy to lose. A failure is reported and logging stays on stderr.
func openLogFile(getenv func(string) string, name string, stderr io.Writer) *os.File {
	home, err := config.Home(getenv)
	if err != nil {
		return nil
	}
	dir := filepath.Join(home, "logs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fmt.Fprintf(stderr, "tandem: no log file: %v\n", err)
		return nil
	}
	path := filepath.Join(dir, name+".log")
	if st, err := os.Stat(path); err == nil && st.Size() > maxLogBytes {
		os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintf(stderr, "tandem: no log file: %v\n", err)
		return nil
	}
	return f
}

// logWriter is where log lines go: stderr, and the log file when there is one.
func (m *Main) logWriter() io.Writer {
	if m.LogFile == nil {
		return m.Stderr
	}
	return io.MultiWriter(m.Stderr, m.LogFile)
}
