package treesitter

import (
	"os"
	"path/filepath"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestNodeLayout walks every sample's whole tree twice, through the
// bindings and through node.go's direct C calls, and requires the same
// nodes: it fails if the C declarations in node.go stop matching the
// runtime the bindings compile.
func TestNodeLayout(t *testing.T) {
	for _, path := range samples(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			lang := ForPath(path)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			g, tab, _, err := lang.load()
			if err != nil {
				t.Fatal(err)
			}
			p := NewParser()
			defer p.Close()
			tree := p.parser(lang, g).Parse(nil, src)
			defer tree.Close()
			w := walker{tab: tab, src: src, cur: &p.cur}
			visited := compareNodes(t, &w, tree.RootNode(), rootNode(tree.RootNode()))
			if visited < 20 {
				t.Fatalf("compared only %d nodes", visited)
			}
		})
	}
}

func compareNodes(t *testing.T, w *walker, want *sitter.Node, got node) int {
	t.Helper()
	if got.null() {
		t.Fatalf("%s at byte %d: got the null node", want.Type(), want.StartByte())
	}
	if w.typ(got) != want.Type() || uint32(got.start_byte) != want.StartByte() || uint32(got.end_byte) != want.EndByte() ||
		uint32(got.start_row) != want.StartPoint().Row || uint32(got.end_row) != want.EndPoint().Row ||
		uint32(got.end_column) != want.EndPoint().Column || got.isNamed() != want.IsNamed() {
		t.Fatalf("node differs:\n got %s %d-%d rows %d-%d:%d named=%v\nwant %s %d-%d rows %d-%d:%d named=%v",
			w.typ(got), got.start_byte, got.end_byte, got.start_row, got.end_row, got.end_column, got.isNamed(),
			want.Type(), want.StartByte(), want.EndByte(), want.StartPoint().Row, want.EndPoint().Row, want.EndPoint().Column, want.IsNamed())
	}
	var kids []node
	w.each(got, false, func(n node) bool { kids = append(kids, n); return true })
	if len(kids) != int(want.ChildCount()) {
		t.Fatalf("%s at byte %d: %d children, want %d", want.Type(), want.StartByte(), len(kids), want.ChildCount())
	}
	visited := 1
	for i, k := range kids {
		wc := want.Child(i)
		if name := want.FieldNameForChild(i); name != "" {
			if k.field == 0 || w.tab.fields[name] != uint16(k.field) {
				t.Fatalf("%s child %d: field id %d, want %q (%d)", want.Type(), i, k.field, name, w.tab.fields[name])
			}
			if f := w.field(got, name); f.null() {
				t.Fatalf("%s: field %q not found", want.Type(), name)
			}
		}
		if c := w.child(got, i); c.start_byte != k.start_byte || c.symbol != k.symbol {
			t.Fatalf("%s child %d: child() and each() disagree", want.Type(), i)
		}
		visited += compareNodes(t, w, wc, k)
	}
	return visited
}
