package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// writeTree writes files under a fresh directory and returns it.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// An additional root's instructions, the baseline and a nested file the
// session reached, come back once after a compaction; a loaded session
// keeps tracking them (an offline change is appended once, nothing is
// repeated).
func TestAdditionalRootInstructionsSurviveCompactionAndLoad(t *testing.T) {
	f := newFixture(t)
	primary := writeTree(t, map[string]string{".git/HEAD": "x", "AGENTS.md": "PRIMARY-RULE\n"})
	second := writeTree(t, map[string]string{".git/HEAD": "x", "AGENTS.md": "SECOND-RULE\n",
		"lib/AGENTS.md": "LIB-RULE\n", "lib/x.go": "package lib\n"})
	s, err := f.agent.NewSession(context.Background(), SessionOptions{Cwd: primary, AdditionalRoots: []string{second}, Mode: ModeCode, Host: &testHost{}})
	if err != nil {
		t.Fatal(err)
	}
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("r1", "read_file", `{"path":"`+filepath.Join(second, "lib/x.go")+`"}`)}},
		llmtest.Reply{Text: []string{"read"}},
		llmtest.Reply{Text: []string{"SUMMARY"}}, llmtest.Reply{Text: []string{"after"}},
	)
	for _, p := range []string{"look at x.go", "/compact", "go on"} {
		if _, err := s.Prompt(context.Background(), prompt(p)); err != nil {
			t.Fatal(err)
		}
	}
	reqs := f.srv.Requests()
	after := allText(reqs[len(reqs)-1])
	for _, rule := range []string{"PRIMARY-RULE", "SECOND-RULE", "LIB-RULE"} {
		if n := strings.Count(after, rule); n != 1 {
			t.Errorf("%q appears %d times after the compaction, want once:\n%s", rule, n, after)
		}
	}
	if !strings.Contains(after, "additional workspace root "+second) {
		t.Errorf("the restored instructions do not name their root:\n%s", after)
	}
	id := s.ID()
	s.Close()
	if err := os.WriteFile(filepath.Join(second, "lib/AGENTS.md"), []byte("LIB-RULE-CHANGED\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	s2, err := New(f.agent.cfg).LoadSession(context.Background(), SessionOptions{ID: id, Host: &testHost{}})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}}, llmtest.Reply{Text: []string{"ok"}})
	for _, p := range []string{"two", "three"} {
		if _, err := s2.Prompt(context.Background(), prompt(p)); err != nil {
			t.Fatal(err)
		}
	}
	reqs = f.srv.Requests()
	last := allText(reqs[len(reqs)-1])
	for rule, want := range map[string]int{"SECOND-RULE": 1, "LIB-RULE-CHANGED": 1, "LIB-RULE\n": 1, "PRIMARY-RULE": 1} {
		if n := strings.Count(last, rule); n != want {
			t.Errorf("%q appears %d times after load, want %d:\n%s", rule, n, want, last)
		}
	}
	var scopes []string
	for _, sc := range s2.Instructions() {
		scopes = append(scopes, sc.File)
	}
	if !strings.Contains(strings.Join(scopes, " "), filepath.Join(second, "lib/AGENTS.md")) {
		t.Errorf("the loaded session lists %q, not the second root's nested file", scopes)
	}
}
