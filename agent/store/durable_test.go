package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A session a newer tandem wrote is refused whole, with a message that
// says why, never half read.
func TestNewerFormatRefused(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	l, err := s.Create(newMeta("s_new", "/w", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	meta := filepath.Join(dir, "s_new", "meta.json")
	b, _ := os.ReadFile(meta)
	os.WriteFile(meta, []byte(strings.Replace(string(b), `"version": 1`, `"version": 7`, 1)), 0o600)
	_, recs, _, err := s.Read("s_new")
	if !errors.Is(err, ErrNewerFormat) || !strings.Contains(err.Error(), "format 7") || recs != nil {
		t.Fatalf("Read = %v, %v; want ErrNewerFormat naming format 7 and no records", recs, err)
	}
}

// A failed write leaves the tail torn: the error says the session was not
// saved, and the next record starts on a line of its own.
func TestFailedWriteMarksTailTorn(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	l, err := s.Create(newMeta("s_torn", "/w", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Append(rec("update", `{"n":1}`)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s_torn", "events.jsonl")
	// What a short write leaves: part of a record, no newline.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"v":1,"kind":"update","da`)
	f.Close()
	// The write itself fails (a descriptor that cannot write stands in for
	// ENOSPC here; the acp full-disk test hits the real limit).
	ro, _ := os.Open(path)
	real := l.f
	l.f = ro
	err = l.Append(rec("update", `{"n":2}`))
	l.f = real
	ro.Close()
	if !errors.Is(err, ErrSave) || !strings.HasPrefix(err.Error(), "could not save the session") {
		t.Fatalf("Append on a failing file = %v, want ErrSave", err)
	}
	if err := l.Append(rec("update", `{"n":3}`)); err != nil {
		t.Fatal(err)
	}
	_, recs, warns, err := s.Read("s_torn")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || string(recs[1].Data) != `{"n":3}` {
		t.Errorf("records = %+v, want n=1 and n=3", recs)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "corrupt") {
		t.Errorf("warnings = %q, want the torn record reported", warns)
	}
}
