package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tandemhq/tandem/internal/testenv"
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

// A write the full disk refuses part way is cut back: the log never ends
// in part of a record, the refused records wait in memory, and once there
// is room they are written in order, so the log holds every record once.
func TestFullDiskCutsBackAndCatchesUp(t *testing.T) {
	disk := filepath.Join(t.TempDir(), "disk")
	testenv.SmallDisk(t, disk, 64<<10)
	s, err := Open(filepath.Join(disk, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.Create(newMeta("s_full", "/w", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Append(rec("update", `{"n":1}`)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(disk, "sessions", "s_full", "events.jsonl")
	before, _ := os.ReadFile(path)
	free := testenv.FillDisk(t, disk)
	// Bigger than the room left in the log's last page, so part of it is
	// written before the disk refuses the rest.
	big := `{"text":"` + strings.Repeat("x", 10000) + `"}`
	err = l.Append(rec("update", `{"n":2}`), rec("update", big))
	if !errors.Is(err, ErrSave) || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Append on a full disk = %v, want ErrSave naming the full disk", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatalf("the failed write left %d bytes behind; want the log as it was (%d bytes)", len(after)-len(before), len(before))
	}
	if err := l.Sync(); !errors.Is(err, ErrSave) {
		t.Fatalf("Sync on a full disk = %v, want ErrSave", err)
	}
	free()
	if err := l.Append(rec("update", `{"n":4}`)); err != nil {
		t.Fatalf("Append once there is room: %v", err)
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	_, recs, warns, err := s.Read("s_full")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, string(r.Data))
	}
	want := []string{`{"n":1}`, `{"n":2}`, big, `{"n":4}`}
	if len(warns) != 0 || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("records = %.80q, warnings %q; want n=1, n=2, the big one, n=4 and no warning", got, warns)
	}
}

// A write that fails outright (here the descriptor cannot write at all)
// keeps its records for the next append; a torn line a crash left before
// it costs only itself.
func TestFailedWriteKeepsRecords(t *testing.T) {
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
	l.Close()
	// What a crash mid-write leaves: part of a record, no newline.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"v":1,"kind":"update","da`)
	f.Close()
	l, err = s.OpenLog("s_torn")
	if err != nil {
		t.Fatal(err)
	}
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
	if len(recs) != 3 || string(recs[1].Data) != `{"n":2}` || string(recs[2].Data) != `{"n":3}` {
		t.Errorf("records = %+v, want n=1, n=2 and n=3", recs)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "corrupt") {
		t.Errorf("warnings = %q, want the torn record reported", warns)
	}
}
