package lsp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// privateFiles is a workspace with files that must never be sent.
var privateFiles = map[string]string{
	".gitignore":            "secret.go\nbuild/\n",
	"secret.go":             "package main\n\nconst token = \"SECRET-IGNORED\"\n",
	"build/gen.go":          "package main\n\nconst gen = \"SECRET-BUILD\"\n",
	".env":                  "API_KEY=SECRET-ENV\n",
	"AGENTS.md":             "Use tabs. INSTRUCTIONS-TEXT\n",
	".tandem/settings.json": `{"permissions": {"deny": ["read_file(denied.go)"]}}`,
	"denied.go":             "package main\n\nconst d = \"SECRET-DENIED\"\n",
	"other.go":              "package main\n\nfunc double(a int) int {\n\treturn a * 2 // OTHER-SNIPPET\n}\n",
}

// Ignored, secret-named, protected and read-denied files are never
// completed in and never sent as context, even while open and recently
// edited; an ordinary open file is.
func TestInlineCompletionNeverSendsPrivateFiles(t *testing.T) {
	f := newCompletionFixture(t, nil, privateFiles)
	f.fim.Handle(func(*llmtest.FIMRequest) llmtest.FIMReply { return llmtest.FIMReply{Chunks: []string{"x"}} })
	for name, text := range privateFiles {
		f.open(name, text)
	}
	f.open("main.go", goSource)
	for _, name := range []string{"secret.go", "build/gen.go", ".env", "AGENTS.md", "denied.go"} {
		f.insert(name, 0, 0, " ")
		if got := f.complete(name, 0, 1, 1); got != "" {
			t.Errorf("%s: suggestion %q, want none", name, got)
		}
	}
	if n := len(f.fim.Requests()); n != 0 {
		t.Fatalf("%d model requests for private files, want none", n)
	}
	f.insert("other.go", 3, 0, "")
	f.complete("main.go", 6, 5, 1)
	reqs := f.fim.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests, want 1", len(reqs))
	}
	body := string(reqs[0].Body)
	for _, secret := range []string{"SECRET-IGNORED", "SECRET-BUILD", "SECRET-ENV", "INSTRUCTIONS-TEXT", "SECRET-DENIED"} {
		if strings.Contains(body, secret) {
			t.Errorf("the model request carries %s: %s", secret, body)
		}
	}
	if !strings.Contains(reqs[0].Prompt, "<|file_sep|>other.go\n") || !strings.Contains(body, "OTHER-SNIPPET") {
		t.Errorf("the open file other.go is not in the context: %q", reqs[0].Prompt)
	}
}

// The workspace's instructions go with a request only when enabled.
func TestInlineCompletionInstructionsWhenEnabled(t *testing.T) {
	f := newCompletionFixture(t, map[string]any{"instructions": true}, privateFiles)
	f.open("main.go", goSource)
	f.complete("main.go", 6, 5, 1)
	if p := f.fim.Requests()[0].Prompt; !strings.Contains(p, "<|file_sep|>AGENTS.md\nUse tabs. INSTRUCTIONS-TEXT\n") {
		t.Fatalf("instructions missing from %q", p)
	}
}

// .tandem/settings.json turns completions off for its workspace.
func TestInlineCompletionOffPerWorkspace(t *testing.T) {
	f := newCompletionFixture(t, nil, map[string]string{".tandem/settings.json": `{"completion": {"enabled": false}}`})
	f.open("main.go", goSource)
	if got := f.complete("main.go", 6, 5, 1); got != "" {
		t.Fatalf("suggestion %q in a workspace that turned completions off", got)
	}
	if n := len(f.fim.Requests()); n != 0 {
		t.Fatalf("%d model requests, want none", n)
	}
}

// A long file is cut to the prefix and suffix budgets at line bounds; the
// same state sends the same bytes, and typing keeps the bytes before the
// cursor, so a local server's KV cache holds.
func TestInlineCompletionContextBudget(t *testing.T) {
	f := newCompletionFixture(t, nil, nil)
	var b strings.Builder
	b.WriteString("package main\n\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "var v%04d = %d // line %d\n", i, i, i)
	}
	f.open("big.go", b.String())
	const line = 4000
	f.complete("big.go", line, 0, 1)
	f.complete("big.go", line, 0, 1)
	f.insert("big.go", line, 0, "v")
	f.complete("big.go", line, 1, 1)
	reqs := f.fim.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	if string(reqs[0].Body) != string(reqs[1].Body) {
		t.Fatalf("the same state sent different requests:\n%s\n%s", reqs[0].Body, reqs[1].Body)
	}
	prefix, suffix, _ := strings.Cut(strings.TrimPrefix(reqs[0].Prompt, "<|fim_prefix|>"), "<|fim_suffix|>")
	suffix = strings.TrimSuffix(suffix, "<|fim_middle|>")
	if len(prefix) > 6000 || len(suffix) > 2000 || len(prefix) < 4000 {
		t.Fatalf("prefix %d bytes, suffix %d: want about 6000 and at most 2000", len(prefix), len(suffix))
	}
	if !strings.HasSuffix(prefix, "// line 3997\n") || !strings.HasPrefix(prefix, "var v") || !strings.HasPrefix(suffix, "var v3998 ") {
		t.Fatalf("windows not cut at lines around the cursor: prefix ends %q, suffix starts %q", prefix[len(prefix)-20:], suffix[:20])
	}
	before, _, _ := strings.Cut(reqs[0].Prompt, "<|fim_suffix|>")
	if !strings.HasPrefix(reqs[2].Prompt, before) {
		t.Fatalf("typing one character changed the bytes before the cursor")
	}
}

// The code index gives the signatures (not the bodies) of what the code
// at the cursor calls.
func TestInlineCompletionSignatures(t *testing.T) {
	f := newCompletionFixture(t, nil, map[string]string{
		"util.go": "package main\n\n// triple multiplies.\nfunc triple(a int) int {\n\treturn a * 3 // BODY\n}\n",
	})
	var syms []map[string]any
	f.c.mustCall("workspace/symbol", map[string]any{"query": "triple"}, &syms) // warms the index
	if len(syms) == 0 {
		t.Fatal("the index does not know triple")
	}
	f.open("main.go", "package main\n\nfunc main() {\n\tn := triple(\n}\n")
	f.complete("main.go", 3, 13, 1)
	p := f.fim.Requests()[0].Prompt
	if !strings.Contains(p, "<|file_sep|>util.go\nfunc triple(a int) int {\n") || strings.Contains(p, "BODY") {
		t.Fatalf("want triple's signature without its body in %q", p)
	}
}

// Provider chat asks the agent's own chat model for the middle only.
func TestInlineCompletionChatFallback(t *testing.T) {
	model := llmtest.NewServer(t)
	model.Enqueue(llmtest.Reply{Text: []string{"```go\nPrintln(x)\n```"}})
	root, home := t.TempDir(), t.TempDir()
	env := append(fakeModelEnvHome(t, model, home), "TANDEM_COMPLETION_PROVIDER=chat")
	c := startClient(t, env)
	res := c.initialize(root, nil)
	if caps, _ := res["capabilities"].(map[string]any); caps["inlineCompletionProvider"] != true {
		t.Fatalf("inlineCompletionProvider not advertised: %v", caps)
	}
	f := &completionFixture{t: t, c: c, root: root, ver: map[string]int{}}
	f.open("main.go", goSource)
	if got := f.complete("main.go", 6, 5, 1); got != "Println(x)" {
		t.Fatalf("suggestion %q, want Println(x)", got)
	}
	r := model.Requests()[0]
	if !strings.Contains(r.LastUserText(), "\tfmt.<CURSOR>\n}") {
		t.Fatalf("the chat model was not shown the cursor: %q", r.LastUserText())
	}
}
