package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/instructions"
	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/store"
)

// oldTwoRootLog writes a session log the way tandem wrote it before each
// root had a tracker: one baseline message carrying the primary root's
// instructions and then the second root's under the old header, and one
// instructions record holding the primary's files alone, without a root.
func oldTwoRootLog(t *testing.T, f *fixture, primary, second string) string {
	t.Helper()
	ctx := context.Background()
	pb, err := instructions.NewTracker(f.agent.instructionsConfig(), primary).Baseline(ctx)
	if err != nil || pb == nil {
		t.Fatalf("primary baseline: %v, %v", pb, err)
	}
	cfg := f.agent.instructionsConfig()
	cfg.Home = ""
	rb, err := instructions.NewTracker(cfg, second).Baseline(ctx)
	if err != nil || rb == nil {
		t.Fatalf("second root's baseline: %v, %v", rb, err)
	}
	text := pb.Text + "\n\nInstructions for the additional workspace root " + second +
		" (the paths named below are relative to it; they apply to files under it):\n" + rb.Text
	meta, _ := json.Marshal(pb.Meta)
	if strings.Contains(string(meta), `"root"`) || strings.Contains(string(meta), second) {
		t.Fatalf("the old record names the second root: %s", meta)
	}
	id := "s_0123456789abcdef01234567"
	now := time.Now().UTC()
	l, err := f.store.Create(store.Meta{ID: id, Cwd: primary, AdditionalDirectories: []string{second}, Mode: string(ModeCode), Created: now, Updated: now})
	if err != nil {
		t.Fatal(err)
	}
	msg := func(role llm.Role, s string) store.Record {
		b, _ := json.Marshal(llm.Text(role, s))
		return store.Record{Kind: recMessage, Data: b}
	}
	if err := l.Append(msg(llm.RoleUser, text), store.Record{Kind: recInstructions, Data: meta},
		msg(llm.RoleUser, "first"), msg(llm.RoleAssistant, "answered")); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return id
}

// A two-root session saved by older code is not shown the second root's
// baseline again after load when the files are as the model saw them; the
// root is recorded then, so a further load does not repeat it either. A
// file changed while tandem was away is sent again, in its new form.
func TestOldTwoRootLogLoadsWithoutRepeat(t *testing.T) {
	for _, changed := range []bool{false, true} {
		f := newFixture(t)
		primary := writeTree(t, map[string]string{".git/HEAD": "x", "AGENTS.md": "PRIMARY-RULE\n"})
		second := writeTree(t, map[string]string{".git/HEAD": "x", "AGENTS.md": "SECOND-RULE\n"})
		id := oldTwoRootLog(t, f, primary, second)
		if changed {
			if err := os.WriteFile(filepath.Join(second, "AGENTS.md"), []byte("SECOND-RULE-NEW\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want := map[string]int{"PRIMARY-RULE": 1, "SECOND-RULE\n": 1, "SECOND-RULE-NEW": 0}
		if changed {
			want["SECOND-RULE-NEW"] = 1
		}
		for load := range 2 {
			s, err := New(f.agent.cfg).LoadSession(context.Background(), SessionOptions{ID: id, Host: &testHost{}})
			if err != nil {
				t.Fatal(err)
			}
			f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
			if _, err := s.Prompt(context.Background(), prompt("again")); err != nil {
				t.Fatal(err)
			}
			reqs := f.srv.Requests()
			last := allText(reqs[len(reqs)-1])
			for rule, n := range want {
				if got := strings.Count(last, rule); got != n {
					t.Errorf("changed=%v, load %d: %q appears %d times, want %d:\n%s", changed, load, rule, got, n, last)
				}
			}
			var files []string
			for _, sc := range s.Instructions() {
				files = append(files, sc.File)
			}
			if !strings.Contains(strings.Join(files, " "), filepath.Join(second, "AGENTS.md")) {
				t.Errorf("changed=%v, load %d: the session lists %q, not the second root's file", changed, load, files)
			}
			s.Close()
		}
	}
}
