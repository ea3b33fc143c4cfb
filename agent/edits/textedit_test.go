package edits

import (
	"encoding/json"
	"testing"
)

func pos(line, char uint32) Position { return Position{Line: line, Character: char} }

func edit(sl, sc, el, ec uint32, text string) TextEdit {
	return TextEdit{Range: Range{Start: pos(sl, sc), End: pos(el, ec)}, NewText: text}
}

func TestTextEditsExact(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		enc      Encoding
		want     []TextEdit
	}{
		{"equal", "a\nb\n", "a\nb\n", UTF16, nil},
		{"empty to text", "", "hi\n", UTF16, []TextEdit{edit(0, 0, 0, 0, "hi\n")}},
		{"text to empty", "hi\nyo", "", UTF16, []TextEdit{edit(0, 0, 1, 2, "")}},
		{"one word", "x := foo(a, b)\n", "x := foo(a, c)\n", UTF16, []TextEdit{edit(0, 12, 0, 13, "c")}},
		{"two lines apart", "a\nb\nc\nd\n", "A\nb\nc\nD\n", UTF16,
			[]TextEdit{edit(0, 0, 0, 1, "A"), edit(3, 0, 3, 1, "D")}},
		{"add trailing newline", "end", "end\n", UTF16, []TextEdit{edit(0, 3, 0, 3, "\n")}},
		{"drop trailing newline", "end\n", "end", UTF16, []TextEdit{edit(0, 3, 1, 0, "")}},
		// After the emoji (two UTF-16 units, four UTF-8 bytes, one UTF-32 unit).
		{"emoji utf16", "😀x\n", "😀y\n", UTF16, []TextEdit{edit(0, 2, 0, 3, "y")}},
		{"emoji utf8", "😀x\n", "😀y\n", UTF8, []TextEdit{edit(0, 4, 0, 5, "y")}},
		{"emoji utf32", "😀x\n", "😀y\n", UTF32, []TextEdit{edit(0, 1, 0, 2, "y")}},
		{"emoji replaced whole", "a😀b", "a😁b", UTF16, []TextEdit{edit(0, 1, 0, 3, "😁")}},
		{"cjk", "中文字\n", "中字\n", UTF16, []TextEdit{edit(0, 1, 0, 2, "")}},
		{"cjk utf8", "中文字\n", "中字\n", UTF8, []TextEdit{edit(0, 3, 0, 6, "")}},
		{"combining mark", "cafe\u0301 ok", "cafe\u0300 ok", UTF16, []TextEdit{edit(0, 4, 0, 5, "\u0300")}},
		// Dropping only the "\r" of a CRLF must take the pair: LSP has no
		// position between "\r" and "\n".
		{"crlf to lf", "a\r\nb\r\n", "a\nb\r\n", UTF16, []TextEdit{edit(0, 1, 1, 0, "\n")}},
		{"lf to crlf", "a\nb\n", "a\r\nb\n", UTF16, []TextEdit{edit(0, 1, 0, 1, "\r")}},
		{"insert inside crlf", "a\r\nb", "a\rx\nb", UTF16, []TextEdit{edit(0, 1, 1, 0, "\rx\n")}},
		{"lone cr lines", "a\rb\rc", "a\rB\rc", UTF16, []TextEdit{edit(1, 0, 1, 1, "B")}},
		{"invalid byte", "a\xffb", "a\xfeb", UTF16, []TextEdit{edit(0, 1, 0, 2, "\xfe")}},
		{"invalid bytes utf8", "\xff\xfe", "\xff\xfdx", UTF8, []TextEdit{edit(0, 1, 0, 2, "\xfdx")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := TextEdits(tt.old, tt.new, tt.enc)
			if !equalEdits(got, tt.want) {
				t.Errorf("TextEdits(%q, %q, %s)\n got %+v\nwant %+v", tt.old, tt.new, tt.enc, got, tt.want)
			}
		})
	}
}

func equalEdits(a, b []TextEdit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTextEditJSON(t *testing.T) {
	// The LSP wire shape, so the lsp package can send these as they are.
	b, err := json.Marshal(edit(1, 2, 3, 4, "x"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}},"newText":"x"}`
	if string(b) != want {
		t.Errorf("json = %s, want %s", b, want)
	}
}

func TestApplyErrors(t *testing.T) {
	tests := []struct {
		name  string
		edits []TextEdit
	}{
		{"overlap", []TextEdit{edit(0, 0, 0, 2, "x"), edit(0, 1, 0, 3, "y")}},
		{"line past end", []TextEdit{edit(5, 0, 5, 0, "x")}},
		{"end before start", []TextEdit{edit(1, 0, 0, 1, "x")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := Apply("abc\ndef\n", tt.edits, UTF16); err == nil {
				t.Errorf("Apply = %q, want an error", got)
			}
		})
	}
}

func TestApplyOrder(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		edits []TextEdit
		want  string
	}{
		// Inserts at one place keep their order; unsorted input is fine.
		{"same-place inserts", "ab", []TextEdit{edit(0, 1, 0, 1, "1"), edit(0, 1, 0, 1, "2")}, "a12b"},
		{"unsorted", "abc", []TextEdit{edit(0, 2, 0, 3, "C"), edit(0, 0, 0, 1, "A")}, "AbC"},
		{"insert before replace", "abc", []TextEdit{edit(0, 1, 0, 2, "B"), edit(0, 1, 0, 1, "+")}, "a+Bc"},
		// A character past the end of the line means the end of the line.
		{"char past eol", "ab\ncd", []TextEdit{edit(0, 99, 0, 99, "!")}, "ab!\ncd"},
		// line == LineCount names the end of the document.
		{"line count is eof", "ab\n", []TextEdit{edit(0, 0, 2, 0, "z")}, "z"},
		{"half surrogate snaps back", "😀b", []TextEdit{edit(0, 1, 0, 1, "x")}, "x😀b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Apply(tt.text, tt.edits, UTF16)
			if err != nil || got != tt.want {
				t.Errorf("Apply = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
