package store

import (
	"testing"
	"time"
)

// TestSetMetaHoldsUpdatedOnly: a sidecar that only moves Updated on waits
// within metaQuiet of the last write; one that changes anything else is
// written at once, and Close writes the one left waiting.
func TestSetMetaHoldsUpdatedOnly(t *testing.T) {
	s, _ := Open(t.TempDir())
	t0 := time.Now().UTC().Truncate(time.Second)
	l, err := s.Create(newMeta("s_q", "/w", t0))
	if err != nil {
		t.Fatal(err)
	}
	updated := func() time.Time {
		t.Helper()
		m, err := s.Meta("s_q")
		if err != nil {
			t.Fatal(err)
		}
		return m.Updated
	}
	m := newMeta("s_q", "/w", t0)
	m.Updated = t0.Add(time.Second)
	if err := l.SetMeta(m); err != nil {
		t.Fatal(err)
	}
	if got := updated(); !got.Equal(t0) {
		t.Errorf("an Updated-only sidecar was written at once: updated %v, want %v still", got, t0)
	}
	m.Title, m.Updated = "named", t0.Add(2*time.Second)
	if err := l.SetMeta(m); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Meta("s_q"); got.Title != "named" || !got.Updated.Equal(m.Updated) {
		t.Errorf("a changed sidecar was held back: %+v", got)
	}
	m.Updated = t0.Add(3 * time.Second)
	if err := l.SetMeta(m); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if got := updated(); !got.Equal(m.Updated) {
		t.Errorf("Close left the waiting sidecar unwritten: updated %v, want %v", got, m.Updated)
	}
	// Closed, the log writes every sidecar at once (a stored session renamed).
	m.Updated = t0.Add(4 * time.Second)
	if err := l.SetMeta(m); err != nil {
		t.Fatal(err)
	}
	if got := updated(); !got.Equal(m.Updated) {
		t.Errorf("a closed log held a sidecar back: updated %v, want %v", got, m.Updated)
	}
}
