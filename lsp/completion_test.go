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
	f.replace(name, line, char, char, text)
}

// replace replaces line:char..line:end with text.
func (f *completionFixture) replace(name string, line, char, end int, text string) {
	f.ver[name]++
	f.c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": f.uri(name), "version": f.ver[name]},
		"contentChanges": []map[string]any{{"range": map[string]any{
			"start": map[string]int{"line": line, "character": char},
			"end":   map[string]int{"line": line, "character": end},
		}, "text": text}},
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

	// A position the document does not have, or a selected item's range
	// after the cursor, is an error; an unopened document has nothing.
	_, ch := f.request("main.go", 99, 0, 1, nil)
	if _, rerr := f.c.await("textDocument/inlineCompletion", ch); rerr == nil || rerr.Code != -32602 {
		t.Errorf("a position past the end answered %v, want InvalidParams", rerr)
	}
	_, ch = f.request("main.go", 6, 2, 1, map[string]any{
		"range": map[string]any{"start": map[string]int{"line": 6, "character": 4}, "end": map[string]int{"line": 6, "character": 5}}, "text": "x"})
	if _, rerr := f.c.await("textDocument/inlineCompletion", ch); rerr == nil || rerr.Code != -32602 {
		t.Errorf("a selected range after the cursor answered %v, want InvalidParams", rerr)
	}
	if got := f.complete("other.go", 0, 0, 1); got != "" {
		t.Errorf("an unopened document got %q", got)
	}
	if n := len(f.fim.Requests()); n != 1 {
		t.Errorf("%d model requests, want still 1", n)
	}
}

// Typing the suggestion's first characters narrows it: no second model
// request, and the answer is what is left.
func TestInlineCompletionCacheNarrows(t *testing.T) {
	f := newCompletionFixture(t, nil, nil)
	f.fim.Handle(func(*llmtest.FIMRequest) llmtest.FIMReply {
		return llmtest.FIMReply{Chunks: []string{"Println(x)"}}
	})
	f.open("main.go", goSource)
	if got := f.complete("main.go", 6, 5, 2); got != "Println(x)" {
		t.Fatalf("suggestion %q, want Println(x)", got)
	}
	f.insert("main.go", 6, 5, "Pri")
	if got := f.complete("main.go", 6, 8, 2); got != "ntln(x)" {
		t.Fatalf("after typing Pri: %q, want ntln(x)", got)
	}
	f.insert("main.go", 6, 8, "ntln(")
	if got := f.complete("main.go", 6, 13, 2); got != "x)" {
		t.Fatalf("after typing ntln(: %q, want x)", got)
	}
	if n := len(f.fim.Requests()); n != 1 {
		t.Fatalf("%d model requests, want 1 (typing into a suggestion must not ask again)", n)
	}
	// Invoked asks the model again whatever is cached.
	f.complete("main.go", 6, 13, 1)
	if n := len(f.fim.Requests()); n != 2 {
		t.Fatalf("%d model requests after an invoked request, want 2", n)
	}
}

// $/cancelRequest answers RequestCancelled at once and cancels the model
// request upstream.
func TestInlineCompletionCancel(t *testing.T) {
	f := newCompletionFixture(t, nil, nil)
	f.fim.Handle(func(*llmtest.FIMRequest) llmtest.FIMReply {
		return llmtest.FIMReply{Chunks: []string{"Print"}, Hang: true}
	})
	f.open("main.go", goSource)
	id, ch := f.request("main.go", 6, 5, 1, nil)
	r := f.arrived()
	f.c.notify("$/cancelRequest", map[string]any{"id": id})
	_, rerr := f.c.await("textDocument/inlineCompletion", ch)
	if rerr == nil || rerr.Code != -32800 {
		t.Fatalf("cancelled request answered %v, want RequestCancelled (-32800)", rerr)
	}
	select {
	case <-r.Cancelled:
	case <-time.After(waitFor):
		t.Fatal("the model request was not cancelled upstream")
	}
}

// A request superseded by the next keystroke's is answered empty at once,
// the model request it started is cancelled, and the document never has
// two model requests at once.
func TestInlineCompletionSuperseded(t *testing.T) {
	f := newCompletionFixture(t, nil, nil)
	f.fim.Handle(func(r *llmtest.FIMRequest) llmtest.FIMReply {
		if r.N == 1 {
			return llmtest.FIMReply{Chunks: []string{"Sprintf"}, Hang: true}
		}
		return llmtest.FIMReply{Chunks: []string{".Println(x)"}}
	})
	f.open("main.go", goSource)
	_, first := f.request("main.go", 6, 5, 2, nil)
	r1 := f.arrived()
	// A backspace: the pending suggestion cannot continue that, so the
	// next request supersedes the first.
	f.replace("main.go", 6, 4, 5, "")
	_, second := f.request("main.go", 6, 4, 2, nil)
	if items := f.items(first); len(items) != 0 {
		t.Fatalf("superseded request answered %v, want no items", items)
	}
	select {
	case <-r1.Cancelled:
	case <-time.After(waitFor):
		t.Fatal("the superseded model request was not cancelled")
	}
	items := f.items(second)
	if len(items) != 1 || items[0].InsertText != ".Println(x)" {
		t.Fatalf("second request answered %+v, want .Println(x)", items)
	}
	if n := f.fim.MaxInFlight(); n != 1 {
		t.Fatalf("%d model requests in flight at once, want 1", n)
	}
}

// A keystroke that continues the suggestion still streaming waits for it
// instead of asking again, and gets the narrowed rest.
func TestInlineCompletionJoinsInFlight(t *testing.T) {
	f := newCompletionFixture(t, nil, nil)
	release := make(chan struct{})
	f.fim.Handle(func(r *llmtest.FIMRequest) llmtest.FIMReply {
		<-release
		return llmtest.FIMReply{Chunks: []string{"Println(x)"}}
	})
	f.open("main.go", goSource)
	_, first := f.request("main.go", 6, 5, 2, nil)
	f.arrived()
	f.insert("main.go", 6, 5, "P")
	_, second := f.request("main.go", 6, 6, 2, nil)
	if items := f.items(first); len(items) != 0 {
		t.Fatalf("superseded request answered %v, want no items", items)
	}
	close(release)
	items := f.items(second)
	if len(items) != 1 || items[0].InsertText != "rintln(x)" {
		t.Fatalf("joined request answered %+v, want rintln(x)", items)
	}
	if n := len(f.fim.Requests()); n != 1 {
		t.Fatalf("%d model requests, want 1", n)
	}
}

// At the end of a line the suggestion may span lines, up to maxLines, and
// the stream is cut as soon as that many have come; mid-line it is one
// line.
func TestInlineCompletionMultiLine(t *testing.T) {
	f := newCompletionFixture(t, map[string]any{"maxLines": 3}, nil)
	f.fim.Handle(func(r *llmtest.FIMRequest) llmtest.FIMReply {
		return llmtest.FIMReply{Chunks: []string{"Println(x)\n", "\tx++\n", "\tx++\n", "\tx++\n", "\tx++\n"}, Hang: true}
	})
	f.open("main.go", goSource)
	if got, want := f.complete("main.go", 6, 5, 1), "Println(x)\n\tx++\n\tx++"; got != want {
		t.Fatalf("multi-line suggestion %q, want %q", got, want)
	}
	r := f.fim.Requests()[0]
	select {
	case <-r.Cancelled:
	case <-time.After(waitFor):
		t.Fatal("the stream was not cut at the line limit")
	}
	// Mid-line (before "x := 1"'s "1"): one line.
	if got := f.complete("main.go", 5, 6, 1); got != "Println(x)" {
		t.Fatalf("mid-line suggestion %q, want Println(x)", got)
	}
}

// With the completion popup open the suggestion continues the selected
// item and replaces the range it would.
func TestInlineCompletionSelectedItem(t *testing.T) {
	f := newCompletionFixture(t, nil, nil)
	f.fim.Handle(func(*llmtest.FIMRequest) llmtest.FIMReply {
		return llmtest.FIMReply{Chunks: []string{"(x)"}}
	})
	f.open("main.go", goSource)
	f.insert("main.go", 6, 5, "Pr")
	_, ch := f.request("main.go", 6, 7, 2, map[string]any{
		"range": map[string]any{"start": map[string]int{"line": 6, "character": 5}, "end": map[string]int{"line": 6, "character": 7}},
		"text":  "Println",
	})
	items := f.items(ch)
	if len(items) != 1 || items[0].InsertText != "Println(x)" || items[0].Range == nil || items[0].Range.Start.Character != 5 || items[0].Range.End.Character != 7 {
		t.Fatalf("answered %+v, want Println(x) over 6:5-6:7", items)
	}
	if p := f.fim.Requests()[0].Prompt; !strings.Contains(p, "\tfmt.Println<|fim_suffix|>") {
		t.Fatalf("prompt does not end with the selected item: %q", p)
	}
}

// Each model family gets a raw prompt in its own FIM tokens over the real
// binary, and its stop tokens.
func TestInlineCompletionFIMTokenTables(t *testing.T) {
	for _, c := range []struct{ model, prompt, stop string }{
		{"deepseek-coder:6.7b-base", "<｜fim▁begin｜>package main\n\nfunc f() {\n\t<｜fim▁hole｜>\n}\n<｜fim▁end｜>", "<｜end▁of▁sentence｜>"},
		{"starcoder2:3b", "<fim_prefix>package main\n\nfunc f() {\n\t<fim_suffix>\n}\n<fim_middle>", "<|endoftext|>"},
		{"codestral:22b", "[SUFFIX]\n}\n[PREFIX]package main\n\nfunc f() {\n\t", "[PREFIX]"},
		{"codellama:7b-code", "<PRE> package main\n\nfunc f() {\n\t <SUF>\n}\n <MID>", "<EOT>"},
	} {
		t.Run(c.model, func(t *testing.T) {
			f := newCompletionFixture(t, map[string]any{"model": c.model}, nil)
			f.open("main.go", "package main\n\nfunc f() {\n\t\n}\n")
			if got := f.complete("main.go", 3, 1, 1); got != "completion" {
				t.Fatalf("suggestion %q", got)
			}
			r := f.fim.Requests()[0]
			if !r.Raw || r.Prompt != c.prompt || !strings.Contains(strings.Join(r.Stop, " "), c.stop) {
				t.Fatalf("raw=%v prompt %q stop %q; want %q with %s", r.Raw, r.Prompt, r.Stop, c.prompt, c.stop)
			}
		})
	}
}
