package store

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func newMeta(id, cwd string, updated time.Time) Meta {
	return Meta{ID: id, Cwd: cwd, Created: updated, Updated: updated}
}

func rec(kind, data string) Record {
	return Record{Kind: kind, Data: json.RawMessage(data)}
}

func TestAppendAndRead(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.Create(newMeta("s_1", "/w", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Append(rec("update", `{"a":1}`), rec("message", `{"b":2}`)); err != nil {
		t.Fatal(err)
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	m, recs, warns, err := s.Read("s_1")
	if err != nil {
		t.Fatal(err)
	}
	if m.Cwd != "/w" || m.Version != Version {
		t.Errorf("meta = %+v", m)
	}
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	if len(recs) != 2 || recs[0].Kind != "update" || string(recs[1].Data) != `{"b":2}` || recs[0].Version != Version {
		t.Errorf("records = %+v", recs)
	}
}

// A crash can leave a torn last line, a foreign tool can leave garbage, a
// newer tandem can write another version: each costs only its own line.
func TestReadSkipsBadLines(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	l, err := s.Create(newMeta("s_2", "/w", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	l.Append(rec("update", `{"n":1}`))
	l.Close()
	f, _ := os.OpenFile(filepath.Join(dir, "s_2", "events.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("not json\n")
	f.WriteString(`{"v":99,"kind":"update","data":{}}` + "\n")
	f.WriteString(`{"v":1,"kind":"update","data":{"n":`) // torn
	f.Close()

	_, recs, warns, err := s.Read("s_2")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Fatalf("got %d records, want 1", len(recs))
	}
	if len(warns) != 3 || !strings.Contains(warns[0], "corrupt") || !strings.Contains(warns[1], "version 99") || !strings.Contains(warns[2], "torn") {
		t.Errorf("warnings = %q", warns)
	}

	// Appending after the torn line starts a new line: the new record survives.
	l, err = s.OpenLog("s_2")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Append(rec("update", `{"n":2}`)); err != nil {
		t.Fatal(err)
	}
	l.Close()
	_, recs, _, _ = s.Read("s_2")
	if len(recs) != 2 || string(recs[1].Data) != `{"n":2}` {
		t.Errorf("after append: %+v", recs)
	}
}

func TestListReadsMetaNewestFirst(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, c := range []struct{ id, cwd string }{{"s_a", "/one"}, {"s_b", "/two"}, {"s_c", "/one"}} {
		l, err := s.Create(newMeta(c.id, c.cwd, t0.Add(time.Duration(i)*time.Hour)))
		if err != nil {
			t.Fatal(err)
		}
		l.Close()
	}
	// A session whose log is garbage still lists: listing never opens logs.
	os.WriteFile(filepath.Join(dir, "s_a", "events.jsonl"), []byte("\x00garbage"), 0o600)
	// A broken sidecar is reported and skipped.
	os.Mkdir(filepath.Join(dir, "s_bad"), 0o700)
	os.WriteFile(filepath.Join(dir, "s_bad", "meta.json"), []byte("{"), 0o600)

	all, errs := s.List("")
	if len(errs) != 1 {
		t.Errorf("errors = %v, want one for s_bad", errs)
	}
	var ids []string
	for _, m := range all {
		ids = append(ids, m.ID)
	}
	if strings.Join(ids, ",") != "s_c,s_b,s_a" {
		t.Errorf("order = %v", ids)
	}
	one, _ := s.List("/one")
	if len(one) != 2 {
		t.Errorf("cwd filter: %d sessions, want 2", len(one))
	}
}

func TestIDsCannotEscape(t *testing.T) {
	s, _ := Open(t.TempDir())
	for _, id := range []string{"", "../x", "a/b", ".", "..", strings.Repeat("a", 200)} {
		if _, err := s.OpenLog(id); err == nil {
			t.Errorf("OpenLog(%q) succeeded", id)
		}
		if _, err := s.Create(Meta{ID: id}); err == nil {
			t.Errorf("Create(%q) succeeded", id)
		}
	}
}

func TestSetMetaIsAtomic(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	l, _ := s.Create(newMeta("s_m", "/w", time.Now()))
	defer l.Close()
	m, _ := s.Meta("s_m")
	m.Title = "hello"
	if err := l.SetMeta(m); err != nil {
		t.Fatal(err)
	}
	got, err := s.Meta("s_m")
	if err != nil || got.Title != "hello" {
		t.Fatalf("meta = %+v, %v", got, err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "s_m"))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
}

func TestTitle(t *testing.T) {
	for in, want := range map[string]string{
		"  fix the bug\nand more": "fix the bug",
		strings.Repeat("x", 100):  strings.Repeat("x", 79) + "…",
		"":                        "",
	} {
		if got := Title(in); got != want {
			t.Errorf("Title(%q) = %q, want %q", in, got, want)
		}
	}
}

// A record's line is what json.Marshal writes for it (its data as
// json.Marshal wrote it: HTML characters escaped); indented data is
// compacted onto the one line.
func TestRecordLineAsMarshal(t *testing.T) {
	at := time.Date(2026, 12, 7, 6, 30, 0, 123456789, time.UTC)
	for _, r := range []Record{
		{Version: 1, Kind: "update", Time: at, Data: json.RawMessage(`{"text":"\u003ca \u0026 b\u003e\u2028"}`)},
		{Version: 1, Kind: "message", Time: at, Data: json.RawMessage("{\n  \"a\": [1, 2]\n}")},
		{Version: 1, Kind: "k\"ind", Time: at},
	} {
		got, err := appendRecord(nil, r)
		want, werr := json.Marshal(r)
		if err != nil || werr != nil || string(got) != string(want) {
			t.Errorf("appendRecord = %s, %v; json.Marshal = %s, %v", got, err, want, werr)
		}
	}
}

// A sidecar rewritten with the content it holds is left alone: no copy
// is created and renamed over it.
func TestSetMetaSameLeavesFile(t *testing.T) {
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := newMeta("s_same", "/w", time.Now())
	l, err := st.Create(m)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	path := filepath.Join(st.Dir(), "s_same", "meta.json")
	if err := l.SetMeta(m); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.SetMeta(m); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(path)
	if !os.SameFile(before, after) {
		t.Error("meta.json was replaced by a copy of itself")
	}
	m.Title = "changed"
	if err := l.SetMeta(m); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.Meta("s_same"); got.Title != "changed" {
		t.Errorf("title after a change = %q", got.Title)
	}
}
