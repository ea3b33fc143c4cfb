package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/tools"
)

// When settings.local.json cannot be written (here .tandem is a file),
// "Always allow" still holds for the session, and the user is told it was
// not saved; /permissions lists the rule as the session's.
func TestAlwaysAllowUnsavedHoldsForTheSession(t *testing.T) {
	f := newFixture(t)
	s, h, dir := f.session(ModeCode, map[string]string{".tandem": "not a directory"})
	h.answer = func(req PermissionRequest) (Decision, error) { return Decision{Kind: AllowAlways}, nil }
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c1", "run_command", `{"command":"echo -n a"}`)}},
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{call("c2", "run_command", `{"command":"echo -n b"}`)}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("echo")); err != nil {
		t.Fatal(err)
	}
	if h.askCount() != 1 {
		t.Errorf("asks = %d, want 1", h.askCount())
	}
	var said strings.Builder
	for _, u := range h.snapshot() {
		if u.Type == AgentMessageChunk && u.Chunk != nil {
			said.WriteString(u.Chunk.Text)
		}
	}
	if !strings.Contains(said.String(), "run_command(echo:*) could not be saved") || !strings.Contains(said.String(), "this session only") {
		t.Errorf("the user was not told the rule was not saved: %q", said.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".tandem")); string(b) != "not a directory" {
		t.Errorf(".tandem changed: %q", b)
	}
	if out := s.perms.describeRules(context.Background()); !strings.Contains(out, "allow:\n  run_command(echo:*) — this session") {
		t.Errorf("/permissions:\n%s", out)
	}
	if msg := s.perms.removeRule(context.Background(), "run_command(echo:*)"); !strings.Contains(msg, "Removed run_command(echo:*) from this session") {
		t.Errorf("remove: %s", msg)
	}
}

// A project deny rule on reading keeps the file from read_file, and out of
// search_files and list_files over its directory; a symlink to it is
// refused too. Reads of other files go on.
func TestReadDenyRules(t *testing.T) {
	f := newFixture(t)
	s, _, dir := f.session(ModeCode, map[string]string{
		".tandem/settings.json": `{"permissions": {"deny": ["Read(secrets/**)"]}}`,
		"secrets/key.txt":       "needle-in-secret\n",
		"src/a.txt":             "needle-in-src\n",
	})
	if err := os.Symlink(filepath.Join(dir, "secrets", "key.txt"), filepath.Join(dir, "src", "link.txt")); err != nil {
		t.Fatal(err)
	}
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{
			call("r1", "read_file", `{"path":"secrets/key.txt"}`),
			call("r2", "read_file", `{"path":"src/link.txt"}`),
			call("s1", "search_files", `{"pattern":"needle"}`),
			call("l1", "list_files", `{"recursive":true}`),
			call("r3", "read_file", `{"path":"src/a.txt"}`),
		}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("look")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	for _, id := range []string{"r1", "r2"} {
		if r, _ := toolResult(reqs, id); !r.IsError || !strings.Contains(r.Text, "read_file(secrets/**) in .tandem/settings.json denies") || strings.Contains(r.Text, "needle") {
			t.Errorf("%s: %q", id, r.Text)
		}
	}
	if r, _ := toolResult(reqs, "s1"); !strings.Contains(r.Text, "needle-in-src") || strings.Contains(r.Text, "needle-in-secret") {
		t.Errorf("search: %q", r.Text)
	}
	if r, _ := toolResult(reqs, "l1"); !strings.Contains(r.Text, "src/a.txt") || strings.Contains(r.Text, "key.txt") {
		t.Errorf("list: %q", r.Text)
	}
	if r, _ := toolResult(reqs, "r3"); r.IsError || !strings.Contains(r.Text, "needle-in-src") {
		t.Errorf("plain read: %q", r.Text)
	}
}

// A deny rule on read_file keeps the files it names out of what the
// index-backed tools show: list_code_definition_names over a directory and
// on the file itself, repo_map, and the map in the first request.
func TestReadDenyRulesHideDefinitions(t *testing.T) {
	f := repoMapFixture(t, 500)
	files := map[string]string{
		".tandem/settings.json": `{"permissions": {"deny": ["read_file(secrets/**)"]}}`,
		"secrets/keys.go":       "package secrets\n\nfunc MakeSecretKey() string { return core.Open() }\n",
		"core/open.go":          "package core\n\nfunc Open() string { return \"\" }\n",
		"api/use.go":            "package api\n\nfunc Use() string { return core.Open() }\n",
	}
	s, _, _ := f.session(ModeCode, files)
	f.srv.Enqueue(
		llmtest.Reply{ToolCalls: []llmtest.ToolCall{
			call("d1", tools.ListCodeDefinitionNamesName, `{"path":"."}`),
			call("d2", tools.ListCodeDefinitionNamesName, `{"path":"secrets/keys.go"}`),
			call("m1", tools.RepoMapName, `{"focus":["secrets"]}`),
		}},
		llmtest.Reply{Text: []string{"done"}},
	)
	if _, err := s.Prompt(context.Background(), prompt("look")); err != nil {
		t.Fatal(err)
	}
	reqs := f.srv.Requests()
	if r, _ := toolResult(reqs, "d1"); r.IsError || !strings.Contains(r.Text, "Use") || strings.Contains(r.Text, "MakeSecretKey") || strings.Contains(r.Text, "secrets/") {
		t.Errorf("definitions of the workspace: %q", r.Text)
	}
	if r, _ := toolResult(reqs, "d2"); !r.IsError || !strings.Contains(r.Text, "denies reading secrets/keys.go") || strings.Contains(r.Text, "MakeSecretKey") {
		t.Errorf("definitions of the denied file: %q", r.Text)
	}
	if r, _ := toolResult(reqs, "m1"); r.IsError || !strings.Contains(r.Text, "core/open.go") || strings.Contains(r.Text, "secrets") || strings.Contains(r.Text, "MakeSecretKey") {
		t.Errorf("repo_map: %q", r.Text)
	}
	first := allText(reqs[0])
	if !strings.Contains(first, tools.RepoMapHeader+"\ncore/open.go") || strings.Contains(first, "MakeSecretKey") || strings.Contains(first, "secrets/keys.go") {
		t.Errorf("the first request's map: %q", first)
	}
}
