package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/codeindex"
)

var defsTree = map[string]string{
	"pkg/shapes.go": "package shapes\n\nconst Pi = 3.14159\n\ntype Circle struct {\n\tR float64\n}\n\nfunc (c Circle) Area() float64 {\n\treturn Pi * c.R * c.R\n}\n",
	"web/app.py":    "class App:\n    name = 'x'\n\n    def run(self):\n        pass\n\n\ndef main():\n    App().run()\n",
	"web/README.md": "# not source\n",
	".gitignore":    "gen/\n",
	"gen/out.go":    "package gen\n\nfunc Generated() {}\n",
}

func TestListCodeDefinitionNamesFile(t *testing.T) {
	f := newFixture(t, defsTree)
	res := f.run(t, NewListCodeDefinitionNames(), map[string]any{"path": "pkg/shapes.go"})
	want := "# pkg/shapes.go (11 lines, 4 defs)\n3 | const Pi = 3.14159\n5-7 | type Circle struct {\n6 |   R float64\n9-11 |   func (c Circle) Area() float64 {\n"
	if res.IsError || res.Output != want {
		t.Fatalf("output:\n%s\nwant:\n%s", res.Output, want)
	}
	if len(res.Touched) != 1 || res.Touched[0] != f.abs("pkg/shapes.go") {
		t.Errorf("Touched = %v", res.Touched)
	}
}

func TestListCodeDefinitionNamesReadsEditorBuffer(t *testing.T) {
	f := newFixture(t, defsTree)
	f.host.readFile = func(context.Context, string) (string, error) {
		return "package shapes\n\nfunc Unsaved() {}\n", nil
	}
	res := f.run(t, NewListCodeDefinitionNames(), map[string]any{"path": "pkg/shapes.go"})
	if !strings.Contains(res.Output, "3 | func Unsaved() {}") {
		t.Fatalf("buffer content not used:\n%s", res.Output)
	}
}

func TestListCodeDefinitionNamesDirectory(t *testing.T) {
	for name, withIndex := range map[string]bool{"transient": false, "session index": true} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, defsTree)
			if withIndex {
				ix, err := codeindex.Open(context.Background(), f.root, codeindex.Options{})
				if err != nil {
					t.Fatal(err)
				}
				f.env.Index = ix
				// Written after the index was built: the tool must refresh.
				writeTree(t, f.root, map[string]string{"web/extra.py": "def later():\n    pass\n"})
			} else {
				writeTree(t, f.root, map[string]string{"web/extra.py": "def later():\n    pass\n"})
			}
			res := f.run(t, NewListCodeDefinitionNames(), map[string]any{"path": "web"})
			want := "# web/app.py (9 lines, 4 defs)\n1-5 | class App:\n4-5 |   def run(self):\n8-9 | def main():\n\n# web/extra.py (2 lines, 1 defs)\n1-2 | def later():\n"
			if res.IsError || res.Output != want {
				t.Fatalf("output:\n%s\nwant:\n%s", res.Output, want)
			}
			root := f.run(t, NewListCodeDefinitionNames(), map[string]any{"path": "."})
			if strings.Contains(root.Output, "gen/out.go") || !strings.Contains(root.Output, "# pkg/shapes.go") {
				t.Errorf("root listing ignores .gitignore wrongly:\n%s", root.Output)
			}
		})
	}
}

func TestListCodeDefinitionNamesErrors(t *testing.T) {
	f := newFixture(t, defsTree)
	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "../outside"}, "workspace root"},
		{map[string]any{"path": "nope.go"}, "cannot list"},
		{map[string]any{"path": "web/README.md"}, "not a source file"},
		{map[string]any{}, `missing required field "path" (string)`},
		{map[string]any{"path": ""}, "path is required"},
	}
	for _, tt := range tests {
		res := f.run(t, NewListCodeDefinitionNames(), tt.args)
		if !res.IsError || !strings.Contains(res.Output, tt.want) {
			t.Errorf("%v: %+v, want an error containing %q", tt.args, res, tt.want)
		}
	}
}

func TestListCodeDefinitionNamesDescribesRegistry(t *testing.T) {
	info := NewListCodeDefinitionNames().Info()
	for _, want := range []string{"go (.go)", "tsx (.tsx)", "cpp (.cc"} {
		if !strings.Contains(info.Description, want) {
			t.Errorf("description lacks %q:\n%s", want, info.Description)
		}
	}
	if info.Group != GroupRead {
		t.Errorf("group %s", info.Group)
	}
}
