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
