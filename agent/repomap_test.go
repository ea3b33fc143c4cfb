package agent

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/tools"
	"github.com/tandemhq/tandem/codeindex"
)

var repoMapFiles = map[string]string{
	".git/HEAD":      "ref: refs/heads/main\n",
	"AGENTS.md":      "ROOT-RULE: use tabs\n",
	"core/store.go":  "package core\n\ntype Store struct{}\n\nfunc (s *Store) Lookup(k string) string { return k }\n",
	"api/handler.go": "package api\n\nfunc Handle(s *core.Store) string { return s.Lookup(\"k\") }\n",
	"cli/main.go":    "package main\n\nfunc main() { api.Handle(&core.Store{}) }\n",
}

func repoMapFixture(t *testing.T, tokens int) *fixture {
	home := t.TempDir()
	return newFixture(t, func(c *Config) {
		c.Indexes = codeindex.NewPool(codeindex.Options{CacheDir: filepath.Join(home, "index")})
		c.RepoMapTokens = tokens
		t.Cleanup(func() { c.Indexes.Close() })
	})
}

// The first request carries the map once, after the instruction baseline
// and before the prompt; the next request extends the first byte for byte.
func TestFirstRequestCarriesRepoMapOnce(t *testing.T) {
	f := repoMapFixture(t, 500)
	s, _, _ := f.session(ModeCode, repoMapFiles)
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("m1", tools.RepoMapName, `{"focus":["cli/main.go"]}`)}},
		llmtest.Reply{Text: []string{"mapped"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("where is the store?")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	first := reqs[0]
	if n := strings.Count(string(first.Body), tools.RepoMapHeader); n != 1 {
		t.Fatalf("first request carries the map %d times, want once", n)
	}
	if strings.Contains(first.System, tools.RepoMapHeader) {
		t.Error("the map is in the system prompt")
	}
	msgs := first.Messages
	if len(msgs) != 3 || !strings.Contains(msgs[0].Content[0].Text, "ROOT-RULE") ||
		!strings.HasPrefix(msgs[1].Content[0].Text, tools.RepoMapHeader+"\ncore/store.go\n") ||
		msgs[2].Content[0].Text != "where is the store?" {
		t.Fatalf("first request messages = %+v", msgs)
	}
	if err := llmtest.AppendOnly(llmtest.Anthropic, first.Body, reqs[1].Body); err != nil {
		t.Errorf("second request does not extend the first: %v", err)
	}
	// The tool ran through the agent: its result is the focused map.
	res, ok := toolResult(reqs, "m1")
	if !ok || res.IsError || !strings.HasPrefix(res.Text, tools.RepoMapHeader+"\n") || !strings.Contains(res.Text, "cli/main.go") {
		t.Errorf("repo_map result = %+v", res)
	}

	// A later prompt adds no second map.
	f.srv.Enqueue(llmtest.Reply{Text: []string{"ok"}})
	if _, err := s.Prompt(context.Background(), prompt("thanks")); err != nil {
		t.Fatal(err)
	}
	reqs = f.srv.Requests()
	last := reqs[len(reqs)-1]
	if n := strings.Count(allText(last), tools.RepoMapHeader+"\ncore/store.go"); n != 1 {
		t.Errorf("third request carries the injected map %d times, want once", n)
	}
	if err := llmtest.AppendOnly(llmtest.Anthropic, reqs[1].Body, last.Body); err != nil {
		t.Errorf("third request does not extend the second: %v", err)
	}
}

func TestRepoMapOffSendsNone(t *testing.T) {
	f := repoMapFixture(t, 0)
	s, _, _ := f.session(ModeCode, repoMapFiles)
	f.srv.Enqueue(llmtest.Reply{Text: []string{"hi"}})
	if _, err := s.Prompt(context.Background(), prompt("hi")); err != nil {
		t.Fatal(err)
	}
	if body := string(f.srv.Requests()[0].Body); strings.Contains(body, "core/store.go") {
		t.Errorf("map sent although turned off")
	}
}
