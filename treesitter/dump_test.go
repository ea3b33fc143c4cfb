package treesitter

import (
	"os"
	"testing"
)

// TestDump prints the syntax tree of $TS_DUMP; a tool for writing specs.
func TestDump(t *testing.T) {
	path := os.Getenv("TS_DUMP")
	if path == "" {
		t.Skip("set TS_DUMP=file to print its syntax tree")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lang := ForPath(path)
	if lang == nil {
		t.Fatalf("no language for %s", path)
	}
	p := NewParser()
	defer p.Close()
	ps := p.parser(lang)
	tree := ps.Parse(nil, src)
	defer tree.Close()
	t.Log(tree.RootNode().String())
	defs, err := p.Definitions(lang, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range defs {
		t.Logf("%+v", d)
	}
}
