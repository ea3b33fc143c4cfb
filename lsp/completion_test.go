package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

// completionFixture is `tandem lsp` with inline completions pointed at a
// fake FIM server, and a workspace folder.
type completionFixture struct {
	t    *testing.T
	c    *client
	fim  *llmtest.FIMServer
	root string
	ver  map[string]int
}

// newCompletionFixture starts tandem with completion configured as
// config.json's "completion" object (provider ollama and a Qwen model
// unless it says otherwise) and files written into the workspace first.
func newCompletionFixture(t *testing.T, completion map[string]any, files map[string]string) *completionFixture {
	t.Helper()
	fim := llmtest.NewFIMServer(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	cfg := map[string]any{"provider": "ollama", "model": "qwen2.5-coder:1.5b", "baseURL": fim.URL, "debounceMs": -1}
	for k, v := range completion {
		cfg[k] = v
	}
	b, _ := json.Marshal(map[string]any{"completion": cfg})
	if err := os.WriteFile(filepath.Join(home, "config.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	c := startClient(t, fakeModelEnvHome(t, nil, home))
	res := c.initialize(root, map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-8"}}})
	caps, _ := res["capabilities"].(map[string]any)
	if caps["inlineCompletionProvider"] != true {
		t.Fatalf("inlineCompletionProvider not advertised: %v", caps)
	}
	return &completionFixture{t: t, c: c, fim: fim, root: root, ver: map[string]int{}}
}

func (f *completionFixture) uri(name string) string { return fileURI(filepath.Join(f.root, name)) }

func (f *completionFixture) open(name, text string) {
	f.ver[name] = 1
	f.c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": f.uri(name), "languageId": "go", "version": 1, "text": text}})
}

// insert types text at line:char.
func (f *completionFixture) insert(name string, line, char int, text string) {
	f.ver[name]++
	pos := map[string]int{"line": line, "character": char}
	f.c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": f.uri(name), "version": f.ver[name]},
		"contentChanges": []map[string]any{{"range": map[string]any{"start": pos, "end": pos}, "text": text}},
	})
}

// request sends textDocument/inlineCompletion (kind 1 invoked, 2
// automatic) and returns its channel.
func (f *completionFixture) request(name string, line, char, kind int, selected map[string]any) (int, chan rpcMsg) {
	ctx := map[string]any{"triggerKind": kind}
	if selected != nil {
		ctx["selectedCompletionInfo"] = selected
	}
	return f.c.start("textDocument/inlineCompletion", map[string]any{
		"textDocument": map[string]any{"uri": f.uri(name)},
		"position":     map[string]int{"line": line, "character": char},
		"context":      ctx,
	})
}

type inlineItem struct {
	InsertText string `json:"insertText"`
	Range      *struct {
		Start struct{ Line, Character int } `json:"start"`
		End   struct{ Line, Character int } `json:"end"`
	} `json:"range"`
}

// items awaits an answer and returns its items' texts.
func (f *completionFixture) items(ch chan rpcMsg) []inlineItem {
	f.t.Helper()
	res, rerr := f.c.await("textDocument/inlineCompletion", ch)
	if rerr != nil {
		f.t.Fatalf("inlineCompletion: %v", rerr)
	}
	var list struct {
		Items []inlineItem `json:"items"`
	}
	if err := json.Unmarshal(res, &list); err != nil || list.Items == nil {
		f.t.Fatalf("inlineCompletion answered %s (%v), want an InlineCompletionList", res, err)
	}
	return list.Items
}

// complete asks and returns the one suggestion's text ("" for none).
func (f *completionFixture) complete(name string, line, char, kind int) string {
	f.t.Helper()
	_, ch := f.request(name, line, char, kind, nil)
	items := f.items(ch)
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0].InsertText
	}
	f.t.Fatalf("%d items, want at most one", len(items))
	return ""
}

// arrived waits for the next model request.
func (f *completionFixture) arrived() *llmtest.FIMRequest {
	f.t.Helper()
	select {
	case r := <-f.fim.Arrived():
		return r
	case <-time.After(waitFor):
		f.t.Fatal("no model request arrived")
	}
	return nil
}

const goSource = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tx := 1\n\tfmt.\n}\n"

func TestInlineCompletionFIMRequest(t *testing.T) {
	f := newCompletionFixture(t, nil, nil)
	f.fim.Handle(func(*llmtest.FIMRequest) llmtest.FIMReply {
		return llmtest.FIMReply{Chunks: []string{"Print", "ln(x)"}}
	})
	f.open("main.go", goSource)
	if got := f.complete("main.go", 6, 5, 1); got != "Println(x)" {
		t.Fatalf("suggestion %q, want Println(x)", got)
	}
	reqs := f.fim.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests, want 1", len(reqs))
	}
	r := reqs[0]
	// A Qwen model on Ollama gets a raw prompt in its own FIM tokens.
	wantPrompt := "<|fim_prefix|>package main\n\nimport \"fmt\"\n\nfunc main() {\n\tx := 1\n\tfmt.<|fim_suffix|>\n}\n<|fim_middle|>"
	if !r.Raw || r.Wire != "ollama" || r.Prompt != wantPrompt || r.Suffix != "" {
		t.Fatalf("request raw=%v wire=%s prompt=%q suffix=%q, want raw Ollama %q", r.Raw, r.Wire, r.Prompt, r.Suffix, wantPrompt)
	}
	if !strings.Contains(strings.Join(r.Stop, " "), "<|endoftext|>") {
		t.Errorf("stop tokens %q lack Qwen's <|endoftext|>", r.Stop)
	}
}
