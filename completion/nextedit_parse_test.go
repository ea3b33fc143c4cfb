package completion

import (
	"errors"
	"strings"
	"testing"
)

func TestParseReplyIsStrict(t *testing.T) {
	t.Parallel()
	good := "<<<<<<< SEARCH a.go\nold()\n=======\nnew()\n>>>>>>> REPLACE\n"
	for _, tc := range []struct {
		name, reply string
		blocks      int
		bad         bool
	}{
		{"none", "NONE", 0, false},
		{"none with blanks", "\n  NONE \n\n", 0, false},
		{"one block", good, 1, false},
		{"fenced", "```\n" + good + "```\n", 1, false},
		{"two blocks", good + "\n" + good, 2, false},
		{"prose before", "Here is the edit:\n" + good, 0, true},
		{"prose after", good + "Hope this helps", 0, true},
		{"none then block", "NONE\n" + good, 0, true},
		{"unclosed", "<<<<<<< SEARCH a.go\nold()\n=======\nnew()\n", 0, true},
		{"no divider", "<<<<<<< SEARCH a.go\nold()\n>>>>>>> REPLACE\n", 0, true},
		{"two dividers", "<<<<<<< SEARCH a.go\nold()\n=======\nx\n=======\nnew()\n>>>>>>> REPLACE\n", 0, true},
		{"no file", "<<<<<<< SEARCH \nold()\n=======\nnew()\n>>>>>>> REPLACE\n", 0, true},
		{"empty search", "<<<<<<< SEARCH a.go\n=======\nnew()\n>>>>>>> REPLACE\n", 0, true},
		{"empty", "", 0, true},
		{"too many", strings.Repeat(good, maxBlocks+1), 0, true},
	} {
		got, err := parseReply(tc.reply)
		if tc.bad != (err != nil) || (err != nil && !errors.Is(err, errMalformed)) || len(got) != tc.blocks {
			t.Errorf("%s: %d blocks, err %v", tc.name, len(got), err)
		}
	}
	b, _ := parseReply(good)
	if b[0].name != "a.go" || b[0].search != "old()\n" || b[0].replace != "new()\n" {
		t.Errorf("block: %+v", b[0])
	}
}

func TestApplyBlocksKeepsOnlyExactEdits(t *testing.T) {
	t.Parallel()
	text := "func a() {\n\told()\n}\n\nfunc b() {\n\told()\n\tother()\n}\n"
	whole := [][2]int{{0, len(text)}}
	mk := func(search, replace string) block { return block{name: "x.go", search: search, replace: replace} }
	for _, tc := range []struct {
		name   string
		blocks []block
		spans  [][2]int
		want   string // "" when the file is dropped
	}{
		{"unique", []block{mk("\told()\n\tother()\n", "\tnew()\n\tother()\n")}, whole,
			"func a() {\n\told()\n}\n\nfunc b() {\n\tnew()\n\tother()\n}\n"},
		{"ambiguous", []block{mk("\told()\n", "\tnew()\n")}, whole, ""},
		{"absent", []block{mk("\tmissing()\n", "\tnew()\n")}, whole, ""},
		{"no change", []block{mk("\tother()\n", "\tother()\n")}, whole, ""},
		{"outside the excerpt", []block{mk("\tother()\n", "\tx()\n")}, [][2]int{{0, 20}}, ""},
		{"one of two fails", []block{mk("\tother()\n", "\tx()\n"), mk("\tnope()\n", "")}, whole, ""},
		{"overlap", []block{mk("\told()\n\tother()\n", "a\n"), mk("\tother()\n", "b\n")}, whole, ""},
		{"other file only", []block{{name: "y.go", search: "a", replace: "b"}}, whole, ""},
		{"two blocks", []block{mk("func a() {\n", "func a() error {\n"), mk("\tother()\n", "\tx()\n")}, whole,
			"func a() error {\n\told()\n}\n\nfunc b() {\n\told()\n\tx()\n}\n"},
	} {
		f := &shownFile{name: "x.go", path: "/r/x.go", text: text, spans: tc.spans}
		got := applyBlocks([]*shownFile{f}, tc.blocks)
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("%s: applied %q", tc.name, got[0].New)
		case tc.want != "" && (len(got) != 1 || got[0].New != tc.want || got[0].Old != text || got[0].Path != "/r/x.go"):
			t.Errorf("%s: got %+v", tc.name, got)
		}
	}
}

func TestApplyBlocksKeepsCRLF(t *testing.T) {
	t.Parallel()
	text := "a := 1\r\nb := a\r\n"
	f := &shownFile{name: "x.go", path: "/x.go", text: text, spans: [][2]int{{0, len(text)}}}
	got := applyBlocks([]*shownFile{f}, []block{{name: "x.go", search: "b := a\n", replace: "b := a + 1\n"}})
	if len(got) != 1 || got[0].New != "a := 1\r\nb := a + 1\r\n" {
		t.Errorf("got %+v", got)
	}
}
