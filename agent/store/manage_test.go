package store

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSizeDeleteResolveCopy(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	for _, id := range []string{"s_abc1", "s_abc2", "s_xyz"} {
		l, err := s.Create(Meta{ID: id, Cwd: "/w", Created: now, Updated: now})
		if err != nil {
			t.Fatal(err)
		}
		l.Append(Record{Kind: "update", Data: []byte(`{"n":1}`)})
		l.Close()
	}
	if n, err := s.Size("s_xyz"); err != nil || n < 50 {
		t.Errorf("Size = %d, %v", n, err)
	}
	var b strings.Builder
	if err := s.CopyLog("s_xyz", &b); err != nil || !strings.Contains(b.String(), `"kind":"update"`) || strings.Count(b.String(), "\n") != 1 {
		t.Errorf("CopyLog = %q, %v", b.String(), err)
	}
	if id, err := s.Resolve("s_x"); err != nil || id != "s_xyz" {
		t.Errorf("Resolve(s_x) = %q, %v", id, err)
	}
	if _, err := s.Resolve("s_abc"); err == nil || !strings.Contains(err.Error(), "2 sessions") {
		t.Errorf("ambiguous prefix: %v", err)
	}
	if _, err := s.Resolve("../etc"); !errors.Is(err, ErrNotFound) {
		t.Errorf("path-like id: %v", err)
	}
	if err := s.Delete("s_abc1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Meta("s_abc1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted session still reads: %v", err)
	}
	if err := s.Delete("s_abc1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
	if id, err := s.Resolve("s_abc"); err != nil || id != "s_abc2" {
		t.Errorf("Resolve after delete = %q, %v", id, err)
	}
	if _, err := s.Size("s_abc1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Size of a deleted session: %v", err)
	}
}
