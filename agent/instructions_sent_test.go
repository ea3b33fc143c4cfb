package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// TestInstructionsTheClientSent: a client that puts AGENTS.md in the
// prompt (CodeCompanion's rules, as an embedded resource) gets it once: the
// baseline carries only the files the prompt lacks, the file still counts
// as loaded, and the next turn does not add it.
func TestInstructionsTheClientSent(t *testing.T) {
	f := newFixture(t)
	const rule = "ROOT-RULE: use tabs\r\nand short names\n"
	s, _, dir := f.session(ModeCode, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"AGENTS.md": rule,
	})
	os.WriteFile(filepath.Join(f.home, "AGENTS.md"), []byte("USER-RULE: be brief\n"), 0o644)
	f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}}, llmtest.Reply{Text: []string{"ok"}})
	_, err := s.Prompt(context.Background(), []ContentBlock{
		{Type: "text", Text: "follow the rules"},
		{Type: "resource", Resource: &EmbeddedResource{URI: "file://" + filepath.Join(dir, "AGENTS.md"), Text: "ROOT-RULE: use tabs\nand short names"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	first := allText(f.srv.Requests()[0])
	if n := strings.Count(first, "ROOT-RULE"); n != 1 {
		t.Errorf("AGENTS.md reached the model %d times, want once:\n%s", n, first)
	}
	if !strings.Contains(first, "USER-RULE") {
		t.Errorf("the user's own file, which the prompt lacks, is missing:\n%s", first)
	}
	var loaded []string
	for _, sc := range s.Instructions() {
		loaded = append(loaded, filepath.Base(filepath.Dir(sc.File))+"/"+filepath.Base(sc.File))
	}
	if len(loaded) != 2 {
		t.Errorf("loaded instruction files %v, want the user's and the project's", loaded)
	}
	if _, err := s.Prompt(context.Background(), prompt("again")); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(allText(f.srv.Requests()[1]), "ROOT-RULE"); n != 1 {
		t.Errorf("second request carries AGENTS.md %d times, want once (the first prompt's copy)", n)
	}
}
