package store

import (
	"errors"
	"testing"
)

func TestForkCopiesAndDeleteRemoves(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.Create(Meta{ID: "orig", Cwd: "/w", Title: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Append(Record{Kind: "message", Data: []byte(`"one"`)}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	m, err := s.Fork("orig")
	if err != nil {
		t.Fatal(err)
	}
	if m.ID == "orig" || m.Cwd != "/w" || m.Title != "t" {
		t.Errorf("fork meta %+v", m)
	}
	_, recs, _, err := s.Read(m.ID)
	if err != nil || len(recs) != 1 || string(recs[0].Data) != `"one"` {
		t.Fatalf("fork records %+v, %v", recs, err)
	}
	// The copy goes on alone.
	fl, _ := s.OpenLog(m.ID)
	fl.Append(Record{Kind: "message", Data: []byte(`"two"`)})
	fl.Close()
	if _, recs, _, _ := s.Read("orig"); len(recs) != 1 {
		t.Errorf("the original grew with the fork: %d records", len(recs))
	}
	if err := s.Delete(m.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Meta(m.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted session still readable: %v", err)
	}
	for _, id := range []string{m.ID, "../orig", ""} {
		if err := s.Delete(id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Delete(%q) = %v, want not found", id, err)
		}
	}
	if _, err := s.Fork("missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("fork of a missing session: %v", err)
	}
	if _, err := s.Meta("orig"); err != nil {
		t.Errorf("the original is gone: %v", err)
	}
}
