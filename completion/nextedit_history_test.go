package completion

import (
	"reflect"
	"testing"
)

func TestHistoryFoldsTypingIntoOneChange(t *testing.T) {
	t.Parallel()
	var h History
	// "func old() {" renamed key by key: delete "old", type "new".
	line := "func old() {\n"
	h.Record(LineChange("/a.go", 3, line, 5, 8, ""))
	line = "func () {\n"
	for i, c := range "new" {
		h.Record(LineChange("/a.go", 3, line, 5+i, 5+i, string(c)))
		line = line[:5+i] + string(c) + line[5+i:]
	}
	want := []Change{{Path: "/a.go", Line: 3, Old: "func old() {\n", New: "func new() {\n"}}
	if got := h.Recent(); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v", got)
	}
	// A change elsewhere is a new entry; one above shifts the first.
	h.Record(Change{Path: "/a.go", Line: 0, Old: "", New: "// doc\n"})
	got := h.Recent()
	if len(got) != 2 || got[0].Line != 4 || got[1].New != "// doc\n" {
		t.Fatalf("got %+v", got)
	}
	// Typing and deleting the same text leaves nothing to show.
	h.Record(Change{Path: "/a.go", Line: 0, Old: "// doc\n", New: ""})
	if got := h.Recent(); len(got) != 1 {
		t.Fatalf("after undoing the insert: %+v", got)
	}
	h.Forget("/a.go")
	if got := h.Recent(); len(got) != 0 {
		t.Fatalf("after Forget: %+v", got)
	}
	for i := 0; i < maxHistory+3; i++ {
		h.Record(Change{Path: "/b.go", Line: i * 10, Old: "x\n", New: "y\n"})
	}
	if got := h.Recent(); len(got) != maxHistory || got[0].Line != 30 {
		t.Fatalf("the oldest are not dropped: %d, first %+v", len(got), got[0])
	}
}

func TestTextChangesRecordsHunks(t *testing.T) {
	t.Parallel()
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
	new := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nK\nl\n"
	var h History
	for _, c := range TextChanges("/x", old, new) {
		h.Record(c)
	}
	got := h.Recent()
	if len(got) != 2 || got[0].Line != 7 || got[0].Old != "h\ni\nj\nk\nl\n" || got[1].Line != 0 || got[1].New != "a\nB\nc\nd\ne\n" {
		t.Fatalf("got %+v", got)
	}
}
