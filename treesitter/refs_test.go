package treesitter

import (
	"slices"
	"testing"
)

func TestDefinitionsAndRefs(t *testing.T) {
	src := []byte("package a\n\nimport \"strings\"\n\nfunc Hello(name string) string {\n\tx := strings.ToUpper(name)\n\treturn Greet(x) + Greet(x)\n}\n")
	p := NewParser()
	defer p.Close()
	defs, refs, err := p.DefinitionsAndRefs(ForPath("a.go"), src)
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 1 || defs[0].Name != "Hello" {
		t.Fatalf("defs = %+v", defs)
	}
	for _, want := range []string{"Greet", "Hello", "ToUpper", "name", "strings"} {
		if !slices.Contains(refs, want) {
			t.Errorf("refs %q lack %q", refs, want)
		}
	}
	if slices.Contains(refs, "x") {
		t.Errorf("refs %q keep a one-letter name", refs)
	}
	if !slices.IsSorted(refs) || len(slices.Compact(slices.Clone(refs))) != len(refs) {
		t.Errorf("refs %q not sorted and distinct", refs)
	}
	// Every registered language yields references from the same parse.
	py, err := func() ([]string, error) {
		_, r, err := p.DefinitionsAndRefs(ForPath("m.py"), []byte("import os\n\ndef run(path):\n    return helper(os.path.join(path))\n"))
		return r, err
	}()
	if err != nil || !slices.Contains(py, "helper") {
		t.Errorf("python refs = %q, %v", py, err)
	}
}
