package lsp_test

import (
	"strings"
	"testing"
)

type docSymbol struct {
	Name           string      `json:"name"`
	Kind           int         `json:"kind"`
	Range          wireRange   `json:"range"`
	SelectionRange wireRange   `json:"selectionRange"`
	Children       []docSymbol `json:"children"`
}

// TestDocumentSymbolFollowsBuffer: symbols come from the open buffer after
// incremental changes (not the disk), nested, with selection ranges in the
// negotiated encoding on lines holding CJK identifiers.
func TestDocumentSymbolFollowsBuffer(t *testing.T) {
	t.Parallel()
	const disk = "package p\n\ntype T struct {\n\tA int\n}\n"
	for _, tc := range []struct {
		enc     string
		offered []string
		nameEnd int // end of 方法 on its line
	}{
		{"utf-16", nil, 13},
		{"utf-8", []string{"utf-8"}, 17},
	} {
		t.Run(tc.enc, func(t *testing.T) {
			t.Parallel()
			c := startClient(t, fakeModelEnv(t, nil))
			root := t.TempDir()
			c.initialize(root, map[string]any{"general": map[string]any{"positionEncodings": tc.offered}})
			path := root + "/p.go"
			ed := newEditor(tc.enc)
			ed.open(c, path, disk)
			// Type a method after the struct, in two keystroke-sized changes.
			ed.change(c, path, wireEdit{Range: wireRange{Start: wirePos{5, 0}, End: wirePos{5, 0}}, NewText: "\nfunc (t T) 方法() {}\n"})
			ed.change(c, path, wireEdit{Range: wireRange{Start: wirePos{6, 0}, End: wirePos{6, 0}}, NewText: "// 😀\n"})
			var syms []docSymbol
			c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": fileURI(path)}}, &syms)
			names := map[string]docSymbol{}
			var walk func([]docSymbol, string)
			walk = func(ss []docSymbol, parent string) {
				for _, s := range ss {
					names[parent+s.Name] = s
					walk(s.Children, parent+s.Name+"/")
				}
			}
			walk(syms, "")
			if _, ok := names["T/A"]; !ok {
				t.Errorf("field A not nested under T: %+v", syms)
			}
			var m docSymbol
			for k, s := range names {
				if k == "方法" || k == "T/方法" || k == "T.方法" {
					m = s
				}
			}
			if m.Name == "" {
				t.Fatalf("the unsaved method is missing: %+v", names)
			}
			want := wireRange{Start: wirePos{7, 11}, End: wirePos{7, tc.nameEnd}}
			if m.SelectionRange != want {
				t.Errorf("selectionRange of 方法 = %+v, want %+v", m.SelectionRange, want)
			}
			if m.Kind != 6 {
				t.Errorf("kind %d, want Method (6)", m.Kind)
			}
		})
	}
}

// TestDocumentSymbolEnumMembers: an enum's constants nest under it as
// EnumMember (22); a top-level constant stays Constant (14).
func TestDocumentSymbolEnumMembers(t *testing.T) {
	t.Parallel()
	c := startClient(t, fakeModelEnv(t, nil))
	root := t.TempDir()
	c.initialize(root, nil)
	path := root + "/roles.ts"
	ed := newEditor("utf-16")
	ed.open(c, path, "export const LIMIT = 3;\nexport enum Role {\n  Admin,\n  Guest = \"g\",\n}\n")
	var syms []docSymbol
	c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": fileURI(path)}}, &syms)
	if len(syms) != 2 || syms[0].Name != "LIMIT" || syms[0].Kind != 14 || syms[1].Name != "Role" || syms[1].Kind != 10 {
		t.Fatalf("top level: %+v", syms)
	}
	members := syms[1].Children
	if len(members) != 2 || members[0].Name != "Admin" || members[1].Name != "Guest" || members[0].Kind != 22 || members[1].Kind != 22 {
		t.Errorf("enum members: %+v", members)
	}
}

// TestDocumentSymbolChildrenInsideParent: every child's range lies within
// its parent's; a Go method declared after an interface it satisfies is
// not nested under that interface, and is named after its receiver.
func TestDocumentSymbolChildrenInsideParent(t *testing.T) {
	t.Parallel()
	const src = "package p\n\ntype File struct{ n int }\n\ntype Reader interface {\n\tRead() int\n}\n\nfunc (f *File) Read() int { return f.n }\n\nfunc Open() *File { return nil }\n"
	c := startClient(t, fakeModelEnv(t, nil))
	root := t.TempDir()
	c.initialize(root, nil)
	path := root + "/p.go"
	newEditor("utf-16").open(c, path, src)
	var syms []docSymbol
	c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": fileURI(path)}}, &syms)
	var top []string
	for _, s := range syms {
		top = append(top, s.Name)
		var check func(parent docSymbol)
		check = func(parent docSymbol) {
			for _, ch := range parent.Children {
				if ch.Range.Start.Line < parent.Range.Start.Line || ch.Range.End.Line > parent.Range.End.Line {
					t.Errorf("%s (lines %d-%d) is nested in %s (lines %d-%d)", ch.Name, ch.Range.Start.Line, ch.Range.End.Line,
						parent.Name, parent.Range.Start.Line, parent.Range.End.Line)
				}
				check(ch)
			}
		}
		check(s)
		if s.Name == "Reader" && (len(s.Children) != 1 || s.Children[0].Range.Start.Line != 5) {
			t.Errorf("Reader's children: %+v", s.Children)
		}
	}
	if got := strings.Join(top, ","); got != "File,Reader,File.Read,Open" {
		t.Errorf("top-level symbols %s, want File,Reader,File.Read,Open", got)
	}
}
