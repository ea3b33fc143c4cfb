package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tandemhq/tandem/agent/llm"
	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/openai"
)

// allText joins every text part of a request's messages.
func allText(r *llmtest.Request) string {
	var b strings.Builder
	for _, m := range r.Messages {
		for _, p := range m.Content {
			if p.Type == llm.PartText || p.Type == llm.PartToolResult {
				b.WriteString(p.Text)
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

func TestInstructionsBaselineAndDynamic(t *testing.T) {
	f := newFixture(t)
	s, _, dir := f.session(ModeCode, map[string]string{
		".git/HEAD":         "ref: refs/heads/main\n",
		"AGENTS.md":         "ROOT-RULE: use tabs\n",
		"pkg/sub/AGENTS.md": "SUB-RULE: no globals\n",
		"pkg/sub/x.go":      "package sub\n",
	})
	os.WriteFile(filepath.Join(f.home, "AGENTS.md"), []byte("USER-RULE: be brief\n"), 0o644)
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "r1", Name: "read_file", Args: `{"path":"pkg/sub/x.go"}`}}},
		llmtest.Reply{Text: []string{"read"}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{{ID: "r2", Name: "read_file", Args: `{"path":"pkg/sub/x.go"}`}}},
		llmtest.Reply{Text: []string{"again"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("look")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	first := reqs[0]
	// The baseline is its own user message before the prompt: user-global
	// first, then the root's file; the nested file is not reached yet.
	if len(first.Messages) != 2 {
		t.Fatalf("first request has %d messages", len(first.Messages))
	}
	base := first.Messages[0].Content[0].Text
	if !strings.Contains(base, "<system-reminder>") || strings.Index(base, "USER-RULE") > strings.Index(base, "ROOT-RULE") || strings.Contains(base, "SUB-RULE") {
		t.Errorf("baseline = %q", base)
	}
	if !strings.Contains(base, "~/.tandem/AGENTS.md") && !strings.Contains(base, "AGENTS.md") {
		t.Errorf("baseline names no file: %q", base)
	}
	// Reading a file under pkg/sub reaches its AGENTS.md: it follows the
	// tool result in the next request.
	second := reqs[1]
	last := second.Messages[len(second.Messages)-1]
	if last.Content[0].Type != llm.PartToolResult || len(last.Content) != 2 || !strings.Contains(last.Content[1].Text, "SUB-RULE") || !strings.Contains(last.Content[1].Text, "Additional instructions from") {
		t.Errorf("tool result message = %+v", last.Content)
	}

	// A second prompt touching the same file adds nothing new.
	if _, err := s.Prompt(context.Background(), prompt("again")); err != nil {
		t.Fatal(err)
	}
	reqs = f.srv.Requests()
	if n := strings.Count(allText(reqs[len(reqs)-1]), "SUB-RULE"); n != 1 {
		t.Errorf("SUB-RULE appears %d times, want once", n)
	}
	if got := s.Instructions(); len(got) != 3 {
		t.Errorf("loaded scopes = %+v", got)
	}
	_ = dir
}

// Offline changes to an instruction file are appended once on resume; the
// baseline is not repeated.
func TestInstructionsOnResume(t *testing.T) {
	f := newFixture(t)
	s, _, dir := f.session(ModeCode, map[string]string{".git/HEAD": "x", "AGENTS.md": "RULE-V1\n"})
	f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	if _, err := s.Prompt(context.Background(), prompt("one")); err != nil {
		t.Fatal(err)
	}
	id := s.ID()
	s.Close()
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("RULE-V2\n"), 0o644)

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
	reqs := f.srv.Requests()
	text := allText(reqs[len(reqs)-1])
	if strings.Count(text, "RULE-V1") != 1 || strings.Count(text, "RULE-V2") != 1 || !strings.Contains(text, "Updated instructions from") {
		t.Errorf("history after resume:\n%s", text)
	}
}

// Fifty sessions in fifty workspaces at once: each request carries its own
// workspace's rules and no other's.
func TestInstructionsIsolatedAcrossConcurrentSessions(t *testing.T) {
	f := newFixture(t)
	const n = 50
	f.srv.Handle(func(r *llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Text: []string{"ok"}}
	})
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, _, _ := f.session(ModeCode, map[string]string{".git/HEAD": "x", "AGENTS.md": fmt.Sprintf("MARKER-%03d\n", i)})
			if _, err := s.Prompt(context.Background(), prompt(fmt.Sprintf("PROMPT-%03d", i))); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	if len(reqs) != n {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, r := range reqs {
		text := allText(r)
		var id string
		if i := strings.Index(text, "PROMPT-"); i >= 0 {
			id = text[i+7 : i+10]
		}
		if strings.Count(text, "MARKER-") != 1 || !strings.Contains(text, "MARKER-"+id) {
			t.Errorf("request for %s carries: %q", id, text)
		}
	}
}

// The same loop through the OpenAI-compatible wire format: tool results
// become "tool" messages and the instructions that follow them a user
// message after them.
func TestInstructionsThroughOpenAI(t *testing.T) {
	f := newFixture(t)
	f.agent.cfg.Provider = openai.New(openai.Options{BaseURL: f.srv.BaseURL(llmtest.OpenAI)})
	s, _, _ := f.session(ModeCode, map[string]string{".git/HEAD": "x", "a/AGENTS.md": "NESTED-RULE\n", "a/f.txt": "hello\n"})
	f.srv.Enqueue(
		llmtest.Reply{Reasoning: []string{"let me read"}, ToolCalls: []llmtest.ToolCall{{ID: "r1", Name: "read_file", Args: `{"path":"a/f.txt"}`}}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("read it")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	var body struct {
		Messages []struct {
			Role             string          `json:"role"`
			Content          json.RawMessage `json:"content"`
			ReasoningContent string          `json:"reasoning_content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(reqs[1].Body, &body); err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range body.Messages {
		roles = append(roles, m.Role)
	}
	if got := strings.Join(roles, ","); got != "system,user,assistant,tool,user" {
		t.Errorf("roles = %s", got)
	}
	if m := body.Messages[len(body.Messages)-1]; !strings.Contains(string(m.Content), "NESTED-RULE") {
		t.Errorf("last message = %s", m.Content)
	}
	if body.Messages[2].ReasoningContent != "let me read" {
		t.Errorf("reasoning not replayed: %+v", body.Messages[2])
	}
}
