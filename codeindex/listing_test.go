package codeindex

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tandemhq/tandem/treesitter"
)

func listing(t *testing.T, files []*File, opts ListOptions) string {
	t.Helper()
	var b strings.Builder
	if err := WriteListing(&b, files, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestListingFile(t *testing.T) {
	src := "package shapes\n\nconst Pi = 3.14159\n\nconst (\n\tA = iota\n\tB\n\tC\n\tD\n\tE\n\tF\n)\n\ntype Circle struct {\n\tR float64\n}\n\nfunc NewCircle(r float64) Circle {\n\treturn Circle{R: r}\n}\n"
	f := ParseFile("pkg/shapes.go", treesitter.ForPath("shapes.go"), []byte(src))
	got := listing(t, []*File{f}, ListOptions{MaxDepth: -1})
	want := `# pkg/shapes.go (20 lines, 10 defs)
3 | const Pi = 3.14159
5-12 | constants: A, B, C, +3
14-16 | type Circle struct {
15 |   R float64
18-20 | func NewCircle(r float64) Circle {
`
	if got != want {
		t.Errorf("listing:\n%s\nwant:\n%s", got, want)
	}
}

// A line is shown once even when several definitions share it, and a long
// enum collapses like a const group.
func TestListingSharedLinesAndEnums(t *testing.T) {
	cases := []struct {
		path, src, want string
	}{
		{"a.ts", "export enum Role { Admin, Guest }\nexport enum Big {\n  A,\n  B,\n  C = 3,\n  D,\n  E,\n}\n",
			"# a.ts (8 lines, 9 defs)\n1 | export enum Role { Admin, Guest }\n2-8 | export enum Big {\n2-8 |   constants: A, B, C, +2\n"},
		{"v.go", "package v\n\nvar a, b = 1, 2\n\ntype P struct{ X, Y int }\n",
			"# v.go (5 lines, 5 defs)\n3 | var a, b = 1, 2\n5 | type P struct{ X, Y int }\n"},
		{"e.c", "enum color {\n  RED, GREEN,\n  BLUE\n};\n",
			"# e.c (4 lines, 4 defs)\n1-4 | enum color {\n2 |   RED, GREEN,\n3 |   BLUE\n"},
	}
	for _, c := range cases {
		f := ParseFile(c.path, treesitter.ForPath(c.path), []byte(c.src))
		if got := listing(t, []*File{f}, ListOptions{MaxDepth: -1}); got != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.path, got, c.want)
		}
	}
}

func TestListingDirectoryCapsAndNotes(t *testing.T) {
	var files []*File
	for i := range 5 {
		src := fmt.Sprintf("class C%d:\n    x = 1\n    def m(self):\n        pass\n", i)
		files = append(files, ParseFile(fmt.Sprintf("pkg/m%d.py", i), treesitter.ForPath("m.py"), []byte(src)))
	}
	files = append(files,
		ParseFile("pkg/empty.py", treesitter.ForPath("m.py"), []byte("import os\n")),
		&File{Path: "pkg/big.js", Lang: "javascript", Lines: 900000, Err: "not indexed: too large"})
	got := listing(t, files, ListOptions{MaxDepth: 1, SkipFields: true, MaxLines: 4})
	want := `# pkg/m0.py (4 lines, 3 defs)
1-4 | class C0:
3-4 |   def m(self):

# pkg/m1.py (4 lines, 3 defs)
1-4 | class C1:
3-4 |   def m(self):

(3 more files with 6 definitions not shown (limit 4 lines); list a subdirectory or a file to see them; 1 file without definitions; 1 file not indexed (too large, binary or unreadable))
`
	if got != want {
		t.Errorf("listing:\n%s\nwant:\n%s", got, want)
	}
	if got := listing(t, nil, ListOptions{}); got != "(no source files)\n" {
		t.Errorf("empty listing %q", got)
	}
}
