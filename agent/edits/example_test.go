package edits_test

import (
	"fmt"

	"github.com/tandemhq/tandem/agent/edits"
)

func ExampleTextEdits() {
	old := "greet := \"hi 😀\"\r\nsay(greet)\r\n"
	new := "greet := \"hello 😀\"\r\nsay(greet, 2)\r\n"
	for _, e := range edits.TextEdits(old, new, edits.UTF16) {
		fmt.Printf("%v %q\n", e.Range, e.NewText)
	}
	// Output:
	// 0:11-0:12 "ello"
	// 1:9-1:9 ", 2"
}

func ExampleMapper_Apply() {
	// didChange: each content change applies to the text the last one left.
	m := edits.NewMapper("a😀b\n", edits.UTF16)
	m, _ = m.Apply([]edits.TextEdit{{Range: edits.Range{
		Start: edits.Position{Line: 0, Character: 3},
		End:   edits.Position{Line: 0, Character: 4},
	}, NewText: "c"}})
	p, _ := m.Position(len("a😀c\n"))
	fmt.Printf("%q %v\n", m.Text(), p)
	// Output:
	// "a😀c\n" 1:0
}

func ExampleUnified() {
	fmt.Print(edits.Unified("main.go", edits.FileEdit{Old: "a\nb\n", New: "a\nc\n"}))
	// Output:
	// --- main.go
	// +++ main.go
	// @@ -1,2 +1,2 @@
	//  a
	// -b
	// +c
}
