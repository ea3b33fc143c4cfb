package title

import (
	"strings"
	"testing"
)

func TestFromReply(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Parser bug hunt", "Parser bug hunt"},
		{"\n\nTitle: \"Fix the lexer.\"\nBecause…", "Fix the lexer"},
		{"## **Refactor config loading**", "Refactor config loading"},
		{"“Réparer l'analyseur”", "Réparer l'analyseur"},
		{"  \n \t", ""},
		{"\"\"", ""},
		{strings.Repeat("word ", 40), strings.TrimSpace(strings.Repeat("word ", 16)) + "…"},
	} {
		got, ok := FromReply(c.in)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("FromReply(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

func TestRequestIsSeparateAndCut(t *testing.T) {
	r := Request("small", strings.Repeat("p", 5000), "reply")
	if r.System != System || r.Model != "small" || len(r.Tools) != 0 || len(r.Messages) != 1 {
		t.Fatalf("request %+v", r)
	}
	if n := len([]rune(r.Messages[0].Content[0].Text)); n > 2*inputRunes+200 {
		t.Errorf("request text is %d runes: the prompt was not cut", n)
	}
	if got := Clean("a\x00b\n\tc  d"); got != "a b c d" {
		t.Errorf("Clean = %q", got)
	}
}
