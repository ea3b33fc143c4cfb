package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
)

type wireSuggestion struct {
	ID             string     `json:"id"`
	URI            string     `json:"uri"`
	Edits          []wireEdit `json:"edits"`
	CursorPosition *wirePos   `json:"cursorPosition"`
}

// TestNextEditOverLSP: the user renames a function key by key in the
// editor; tandem/nextEdit asks the model with that rename as one diff and
// answers the matching change in the test file as edits the editor
// applies. A reply that does not apply, or prose, answers no suggestion;
// a document that is not open is refused; $/cancelRequest ends a request
// the model has not answered.
func TestNextEditOverLSP(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, "")
	src := "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	test := "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal()\n\t}\n}\n"
	srcPath := f.write("calc.go", src)
	testPath := f.write("calc_test.go", test)
	ed := newEditor("utf-16")
	ed.open(f.c, srcPath, src)
	at := func(c int) wireRange { return wireRange{Start: wirePos{2, c}, End: wirePos{2, c}} }
	ed.change(f.c, srcPath, wireEdit{Range: wireRange{Start: wirePos{2, 5}, End: wirePos{2, 8}}})
	for i, c := range "Sum" {
		ed.change(f.c, srcPath, wireEdit{Range: at(5 + i), NewText: string(c)})
	}
	f.model.Enqueue(
		llmtest.Reply{Text: []string{"<<<<<<< SEARCH calc_test.go\n\tif Add(1, 2) != 3 {\n=======\n\tif Sum(1, 2) != 3 {\n>>>>>>> REPLACE\n"}},
		llmtest.Reply{Text: []string{"I would rename Add in calc_test.go."}},
		llmtest.Reply{Text: []string{"<<<<<<< SEARCH calc.go\n\treturn a - b\n=======\n\treturn b + a\n>>>>>>> REPLACE\n"}},
	)
	params := map[string]any{"textDocument": map[string]any{"uri": fileURI(srcPath)}, "position": wirePos{2, 8}}
	var res struct {
		Suggestions []wireSuggestion `json:"suggestions"`
	}
	f.c.mustCall("tandem/nextEdit", params, &res)
	if len(res.Suggestions) != 1 || res.Suggestions[0].URI != fileURI(testPath) || res.Suggestions[0].ID == "" {
		t.Fatalf("suggestions: %+v", res.Suggestions)
	}
	sg := res.Suggestions[0]
	if got, want := mustApply(test, sg.Edits, "utf-16"), strings.Replace(test, "Add(1", "Sum(1", 1); got != want {
		t.Errorf("the suggestion makes\n%s\nwant\n%s", got, want)
	}
	if sg.CursorPosition == nil || sg.CursorPosition.Line != 5 {
		t.Errorf("cursor after accepting: %+v", sg.CursorPosition)
	}
	prompt := f.lastUserText()
	if !strings.Contains(prompt, "-func Add(a, b int) int {\n+func Sum(a, b int) int {\n") || strings.Count(prompt, "@@ -") != 1 {
		t.Errorf("the rename is not one diff in the prompt:\n%s", prompt)
	}
	if !strings.Contains(prompt, "Excerpt of calc_test.go") || !strings.Contains(prompt, "Excerpt of calc.go") {
		t.Errorf("the prompt lacks an excerpt:\n%s", prompt)
	}
	for i := 0; i < 2; i++ {
		res.Suggestions = nil
		f.c.mustCall("tandem/nextEdit", params, &res)
		if res.Suggestions == nil || len(res.Suggestions) != 0 {
			t.Errorf("reply %d that does not apply: %+v", i+2, res.Suggestions)
		}
	}
	if _, err := f.c.call("tandem/nextEdit", map[string]any{"textDocument": map[string]any{"uri": fileURI(filepath.Join(f.root, "closed.go"))}, "position": wirePos{}}); err == nil || err.Code != -32602 {
		t.Errorf("a document that is not open: %v", err)
	}

	asked := make(chan struct{})
	f.model.Handle(func(*llmtest.Request) llmtest.Reply {
		close(asked)
		return llmtest.Reply{Hang: true}
	})
	id, ch := f.c.start("tandem/nextEdit", params)
	<-asked
	f.c.notify("$/cancelRequest", map[string]any{"id": id})
	if _, err := f.c.await("tandem/nextEdit", ch); err == nil || err.Code != -32800 {
		t.Errorf("a cancelled request: %v", err)
	}
}

// TestNextEditAsksTheCompletionModelFirst: with a completion model
// configured, tandem/nextEdit asks it first (a FIM model continues the
// prompt from the start of a block); when its reply is not in the format,
// the chat model is asked, and its edit is the answer.
func TestNextEditAsksTheCompletionModelFirst(t *testing.T) {
	t.Parallel()
	fim := llmtest.NewFIMServer(t)
	replies := make(chan string, 2)
	replies <- "calc_test.go\n\tif Add(1, 2) != 3 {\n=======\n\tif Sum(1, 2) != 3 {\n>>>>>>> REPLACE\n"
	replies <- "I am not sure what you mean"
	fim.Handle(func(*llmtest.FIMRequest) llmtest.FIMReply {
		return llmtest.FIMReply{Chunks: []string{<-replies}}
	})
	chat := llmtest.NewServer(t)
	chat.Enqueue(llmtest.Reply{Text: []string{"<<<<<<< SEARCH calc_test.go\n\tt.Fatal()\n=======\n\tt.Fatal(\"Sum\")\n>>>>>>> REPLACE\n"}})
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	src := "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	test := "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal()\n\t}\n}\n"
	srcPath, testPath := filepath.Join(root, "calc.go"), filepath.Join(root, "calc_test.go")
	for p, text := range map[string]string{srcPath: src, testPath: test} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	cfg, _ := json.Marshal(map[string]any{"completion": map[string]any{"provider": "ollama", "model": "qwen2.5-coder:1.5b", "baseURL": fim.URL}})
	if err := os.WriteFile(filepath.Join(home, "config.json"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	c := startClient(t, fakeModelEnvHome(t, chat, home))
	c.initialize(root, nil)
	ed := newEditor("utf-16")
	ed.open(c, srcPath, src)
	ed.change(c, srcPath, wireEdit{Range: wireRange{Start: wirePos{2, 5}, End: wirePos{2, 8}}, NewText: "Sum"})
	params := map[string]any{"textDocument": map[string]any{"uri": fileURI(srcPath)}, "position": wirePos{2, 8}}
	var res struct {
		Suggestions []wireSuggestion `json:"suggestions"`
	}
	c.mustCall("tandem/nextEdit", params, &res)
	if len(res.Suggestions) != 1 || mustApply(test, res.Suggestions[0].Edits, "utf-16") != strings.Replace(test, "Add(1", "Sum(1", 1) {
		t.Fatalf("the completion model's suggestion: %+v", res.Suggestions)
	}
	reqs := fim.Requests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].Prompt, "+func Sum(a, b int) int {") || !strings.Contains(reqs[0].Prompt, "<<<<<<< SEARCH ") {
		t.Errorf("the completion model's prompt: %+v", reqs)
	}
	if n := len(chat.Requests()); n != 0 {
		t.Errorf("the chat model was asked %d times while the completion model answered", n)
	}
	c.mustCall("tandem/nextEdit", params, &res)
	if len(res.Suggestions) != 1 || !strings.Contains(mustApply(test, res.Suggestions[0].Edits, "utf-16"), "t.Fatal(\"Sum\")") {
		t.Fatalf("the chat model's suggestion after a malformed one: %+v", res.Suggestions)
	}
	if len(fim.Requests()) != 2 || len(chat.Requests()) != 1 {
		t.Errorf("requests: completion %d, chat %d", len(fim.Requests()), len(chat.Requests()))
	}
}
