package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

func TestSessionsListShowExportDeletePrune(t *testing.T) {
	srv := llmtest.NewServer(t)
	home, work := t.TempDir(), t.TempDir()
	editScript(srv, work)
	out, errOut, code := tandem(t, srv, home, "", "run", "--cwd", work, "--yes", "--output-format", "json", "finish", "the", "notes")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct{ SessionID string }
	json.Unmarshal([]byte(out), &res)
	id := res.SessionID

	out, _, code = tandem(t, nil, home, "", "sessions")
	if code != 0 || !strings.Contains(out, "ID  ") || !strings.Contains(out, id) || !strings.Contains(out, "finish the notes") || !strings.Contains(out, work) {
		t.Errorf("list: exit %d\n%s", code, out)
	}
	out, _, _ = tandem(t, nil, home, "", "sessions", "list", "--json")
	var rows []struct {
		ID   string
		Size int64
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 || rows[0].Size < 100 {
		t.Errorf("list --json: %v %s", err, out)
	}

	// rename keeps the user's title: listed, and marked so no model
	// title replaces it.
	_, errOut, code = tandem(t, nil, home, "", "sessions", "rename", id[:6], "Notes,", "finished")
	meta0, _ := os.ReadFile(filepath.Join(home, "sessions", id, "meta.json"))
	if out, _, _ = tandem(t, nil, home, "", "sessions"); code != 0 || !strings.Contains(out, "Notes, finished") ||
		!strings.Contains(string(meta0), `"titleBy": "user"`) {
		t.Errorf("rename: exit %d %s\n%s\n%s", code, errOut, out, meta0)
	}
	if _, errOut, code = tandem(t, nil, home, "", "sessions", "rename", id, "  "); code == 0 || !strings.Contains(errOut, "title needs some text") {
		t.Errorf("rename to nothing: exit %d %q", code, errOut)
	}
	renamed := "# Notes, finished\n"

	// show takes a unique prefix of the id and prints the transcript.
	out, errOut, code = tandem(t, nil, home, "", "sessions", "show", id[:6])
	want := "## User\n\nfinish the notes\n\n## Assistant\n\nEditing.\n\n- ✓ Edit notes.txt\n\nDone.\n"
	if code != 0 || !strings.HasPrefix(out, renamed) || !strings.Contains(out, want) {
		t.Errorf("show: exit %d %s\n%s\nwant it to contain\n%s", code, errOut, out, want)
	}
	md, _, _ := tandem(t, nil, home, "", "sessions", "export", "--format", "markdown", id)
	if md != out {
		t.Errorf("export markdown differs from show:\n%s", md)
	}
	out, _, code = tandem(t, nil, home, "", "sessions", "export", id)
	for i, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec struct {
			V    int
			Kind string
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.V != 1 || rec.Kind == "" {
			t.Fatalf("export jsonl line %d: %v %q", i, err, l)
		}
	}
	if code != 0 || strings.Contains(out, "secret-test-key") {
		t.Errorf("export: exit %d", code)
	}

	_, errOut, code = tandem(t, nil, home, "", "sessions", "show", "s_nothere")
	if code != 1 || !strings.Contains(errOut, "not found") {
		t.Errorf("show unknown: exit %d %q", code, errOut)
	}

	// prune: a dry run deletes nothing; sessions newer than the age stay.
	out, _, code = tandem(t, nil, home, "", "sessions", "prune", "--older-than", "1d")
	if code != 0 || out != "" {
		t.Errorf("prune 1d deleted a fresh session: %q", out)
	}
	metaPath := filepath.Join(home, "sessions", id, "meta.json")
	b, _ := os.ReadFile(metaPath)
	old := time.Now().Add(-40 * 24 * time.Hour).UTC().Format(time.RFC3339Nano)
	var meta map[string]any
	json.Unmarshal(b, &meta)
	meta["updated"] = old
	b, _ = json.Marshal(meta)
	os.WriteFile(metaPath, b, 0o600)
	out, _, _ = tandem(t, nil, home, "", "sessions", "prune", "--older-than", "30d", "--dry-run")
	if !strings.Contains(out, id) || !exists(metaPath) {
		t.Errorf("dry run: %q, still there: %v", out, exists(metaPath))
	}
	out, errOut, _ = tandem(t, nil, home, "", "sessions", "prune", "--older-than", "30d")
	if !strings.Contains(out, id) || exists(metaPath) || !strings.Contains(errOut, "deleted 1 session") {
		t.Errorf("prune: %q %q, still there: %v", out, errOut, exists(metaPath))
	}
	_, errOut, code = tandem(t, nil, home, "", "sessions", "prune")
	if code != exitUsage || !strings.Contains(errOut, "--older-than is required") {
		t.Errorf("prune without an age: exit %d %q", code, errOut)
	}

	// delete
	srv.Enqueue(llmtest.Reply{Text: []string{"hi"}})
	tandem(t, srv, home, "", "run", "--cwd", work, "hello")
	out, _, _ = tandem(t, nil, home, "", "sessions", "--json")
	json.Unmarshal([]byte(out), &rows)
	if len(rows) != 1 {
		t.Fatalf("sessions: %s", out)
	}
	_, errOut, code = tandem(t, nil, home, "", "sessions", "delete", rows[0].ID)
	if code != 0 || !strings.Contains(errOut, "deleted "+rows[0].ID) {
		t.Errorf("delete: exit %d %q", code, errOut)
	}
	if out, _, _ = tandem(t, nil, home, "", "sessions", "--json"); strings.TrimSpace(out) != "[]" {
		t.Errorf("after delete: %s", out)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
