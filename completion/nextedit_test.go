package completion_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/agent/llm/llmtest"
	"github.com/tandemhq/tandem/agent/llm/openai"
	"github.com/tandemhq/tandem/completion"
)

// TestNextEditCarriesARenameToTheTest: the user renamed a function; the
// model, asked over real HTTP, answers with the test's call renamed too,
// and the engine returns it as that file's new text. A reply that does
// not apply is dropped without an error.
func TestNextEditCarriesARenameToTheTest(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	src := "package calc\n\nfunc Sum(a, b int) int {\n\treturn a + b\n}\n"
	test := "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal()\n\t}\n}\n"
	srcPath, testPath := filepath.Join(root, "calc.go"), filepath.Join(root, "calc_test.go")
	if err := os.WriteFile(testPath, []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".env"), []byte("KEY=Add\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := llmtest.NewServer(t)
	model.Enqueue(
		llmtest.Reply{Text: []string{"<<<<<<< SEARCH calc_test.go\n\tif Add(1, 2) != 3 {\n=======\n\tif Sum(1, 2) != 3 {\n>>>>>>> REPLACE\n"}},
		llmtest.Reply{Text: []string{"Sure! <<<<<<< SEARCH calc_test.go\n"}},
		llmtest.Reply{Text: []string{"<<<<<<< SEARCH calc_test.go\n\tif Mul(1, 2) != 3 {\n=======\n\tif Sum(1, 2) != 3 {\n>>>>>>> REPLACE\n"}},
	)
	e := &completion.NextEdit{
		Model: completion.ChatNextEdit{Provider: openai.New(openai.Options{BaseURL: model.BaseURL(llmtest.OpenAI)}), Model: "m"},
		Read: func(p string) (string, bool) {
			b, err := os.ReadFile(p)
			return string(b), err == nil
		},
		Related: func(context.Context, string, string, []string) []string {
			return []string{filepath.Join(root, ".env")}
		},
		Excluded: func(p string) bool { return filepath.Base(p) == ".env" },
	}
	req := completion.NextEditRequest{
		Root: root, Path: srcPath, Text: src, Cursor: strings.Index(src, "Sum"),
		Recent: []completion.Change{{Path: srcPath, Line: 2, Old: "func Add(a, b int) int {\n", New: "func Sum(a, b int) int {\n"}},
	}
	got, err := e.Suggest(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Path != testPath || got[0].Old != test || got[0].New != strings.Replace(test, "Add(1", "Sum(1", 1) {
		t.Fatalf("suggestions: %+v", got)
	}
	prompt := model.Requests()[0].LastUserText()
	for _, want := range []string{"-func Add(a, b int) int {", "+func Sum(a, b int) int {", "Excerpt of calc_test.go", "\tif Add(1, 2) != 3 {", "Excerpt of calc.go"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, prompt)
		}
	}
	if strings.Contains(prompt, ".env") || strings.Contains(prompt, "KEY=") {
		t.Errorf("an excluded file reached the model:\n%s", prompt)
	}
	for i := 0; i < 2; i++ { // malformed, then a search that matches nothing
		if got, err := e.Suggest(context.Background(), req); err != nil || len(got) != 0 {
			t.Errorf("reply %d: %+v, %v", i+2, got, err)
		}
	}
	// Nothing edited yet: nothing to follow, and no request.
	if got, err := e.Suggest(context.Background(), completion.NextEditRequest{Root: root, Path: srcPath, Text: src}); err != nil || got != nil {
		t.Errorf("without history: %+v, %v", got, err)
	}
	if n := len(model.Requests()); n != 3 {
		t.Errorf("%d model requests, want 3", n)
	}
}
