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
	f := ParseFile("pkg/shapes.go", treesitter.ByName("go"), []byte(src))
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

func TestListingDirectoryCapsAndNotes(t *testing.T) {
	var files []*File
	for i := range 5 {
		src := fmt.Sprintf("class C%d:\n    x = 1\n    def m(self):\n        pass\n", i)
		files = append(files, ParseFile(fmt.Sprintf("pkg/m%d.py", i), treesitter.ByName("python"), []byte(src)))
	}
	files = append(files,
		ParseFile("pkg/empty.py", treesitter.ByName("python"), []byte("import os\n")),
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
