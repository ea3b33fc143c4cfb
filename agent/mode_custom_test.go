package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

const reviewMode = `---
name: Review
description: Read-only review.
tools: read
---
REVIEW-ROLE: comment, never edit.
`

// TestModeRoleFollowsSwitches: the role goes out once on entering a mode,
// leaving it for a mode without a role says so, a built-in mode adds
// nothing, /mode takes custom ids, and a stored session whose custom mode
// file is gone loads in the default mode.
func TestModeRoleFollowsSwitches(t *testing.T) {
	f := newFixture(t)
	f.srv.Handle(func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"ok"}} })
	s, h, dir := f.session(ModeCode, map[string]string{".tandem/modes/review.md": reviewMode})
	run := func(text string) string {
		t.Helper()
		if _, err := s.Prompt(context.Background(), prompt(text)); err != nil {
			t.Fatal(err)
		}
		reqs := f.srv.Requests()
		return reqs[len(reqs)-1].LastUserText()
	}
	if got := run("in code"); got != "in code" {
		t.Errorf("a built-in mode added text: %q", got)
	}
	if _, err := s.Prompt(context.Background(), prompt("/mode review")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.text(), "Mode set to review.") || s.Mode() != "review" {
		t.Fatalf("/mode review: %q, mode %s", h.text(), s.Mode())
	}
	if got := run("one"); !strings.Contains(got, "REVIEW-ROLE") {
		t.Errorf("entering review: %q", got)
	}
	if got := run("two"); got != "two" {
		t.Errorf("the role was repeated: %q", got)
	}
	if err := s.SetMode(ModeAutoEdit); err != nil {
		t.Fatal(err)
	}
	if got := run("three"); !strings.Contains(got, "role instructions of review mode no longer apply") {
		t.Errorf("leaving review: %q", got)
	}
	if err := s.SetMode("review"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMode("nope"); err == nil || !strings.Contains(err.Error(), "auto-edit, full-auto or review") {
		t.Errorf("SetMode(nope) = %v", err)
	}
	id := s.ID()
	s.Close()
	if err := os.Remove(filepath.Join(dir, ".tandem/modes/review.md")); err != nil {
		t.Fatal(err)
	}
	loaded, err := f.agent.LoadSession(context.Background(), SessionOptions{ID: id, Host: &testHost{}})
	if err != nil {
		t.Fatalf("loading a session whose mode file is gone: %v", err)
	}
	defer loaded.Close()
	if loaded.Mode() != ModeCode {
		t.Errorf("loaded mode = %s, want code", loaded.Mode())
	}
}

// TestCompactionRestatesTheRole: a summary may swallow the message that
// stated the mode's role, so the compacted history's head states it again,
// and the next prompt does not repeat it.
func TestCompactionRestatesTheRole(t *testing.T) {
	f := newFixture(t)
	w := &windowed{}
	w.serve(f.srv, func(*llmtest.Request) llmtest.Reply { return llmtest.Reply{Text: []string{"ok"}} })
	s, _, _ := f.session("review", map[string]string{".tandem/modes/review.md": reviewMode})
	for i := range 6 {
		if _, err := s.Prompt(context.Background(), prompt(fmt.Sprintf("turn %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Prompt(context.Background(), prompt("/compact")); err != nil {
		t.Fatal(err)
	}
	if w.summaries.Load() == 0 {
		t.Fatal("nothing was summarised")
	}
	if _, err := s.Prompt(context.Background(), prompt("after")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	last := reqs[len(reqs)-1]
	var head strings.Builder
	for _, p := range last.Messages[0].Content {
		head.WriteString(p.Text)
	}
	if !strings.Contains(head.String(), "REVIEW-ROLE") {
		t.Errorf("the compacted history's head does not restate the role: %q", head.String())
	}
	if got := last.LastUserText(); got != "after" {
		t.Errorf("the next prompt repeated the role: %q", got)
	}
}
