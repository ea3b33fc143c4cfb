package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The log file is created by the first line logged, not by start-up; a file
// past maxLogBytes moves to .1 first.
func TestLogFileOpensOnFirstWrite(t *testing.T) {
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "TANDEM_HOME" {
			return home
		}
		return ""
	}
	quiet := newLogFile(getenv, "acp", io.Discard)
	if err := quiet.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, "logs")); !os.IsNotExist(err) {
		t.Fatalf("a run that logged nothing made %s/logs (%v)", home, err)
	}

	path := filepath.Join(home, "logs", "acp.log")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, maxLogBytes+1); err != nil {
		t.Fatal(err)
	}
	l := newLogFile(getenv, "acp", io.Discard)
	for _, line := range []string{"one\n", "two\n"} {
		if n, err := l.Write([]byte(line)); n != len(line) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "one\ntwo\n" {
		t.Errorf("%s = %q, %v; want the two lines", path, b, err)
	}
	if st, err := os.Stat(path + ".1"); err != nil || st.Size() != maxLogBytes+1 {
		t.Errorf("the full log was not moved to .1: %v", err)
	}
	if st, err := os.Stat(path); err == nil && st.Mode().Perm() != 0o600 {
		t.Errorf("log file mode %v, want 0600", st.Mode().Perm())
	}
}
