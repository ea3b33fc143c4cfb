package completion

import (
	"fmt"
	"strings"
	"testing"
)

// The prefix window starts at a line, stays within budget, and does not
// move while the user types a few characters.
func TestCutPrefixStable(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	text := b.String()
	first := cutPrefix(text, 1000)
	if len(first) > 1000 || len(first) < 700 || !strings.HasPrefix(first, "line ") {
		t.Fatalf("window of %d bytes starting %q", len(first), first[:10])
	}
	start := len(text) - len(first)
	for typed := range 200 {
		w := cutPrefix(text+strings.Repeat("x", typed), 1000)
		if len(w) > 1000 {
			t.Fatalf("typed %d: window %d bytes over budget", typed, len(w))
		}
		if typed < 100 && len(text)+typed-len(w) != start {
			t.Fatalf("typed %d: the window moved", typed)
		}
	}
	if cutPrefix("short", 1000) != "short" {
		t.Fatal("a short prefix was cut")
	}
}

func TestCutSuffix(t *testing.T) {
	if got := cutSuffix("a\nbb\nccc\n", 6); got != "a\nbb\n" {
		t.Fatalf("%q", got)
	}
}

func TestSnippetAroundLine(t *testing.T) {
	text := "0\n1\n2\n3\n4\n5\n6\n"
	if got := snippet(text, 7, 6); got != "2\n3\n4\n" {
		t.Fatalf("%q", got)
	}
	if got := snippet("long line\n", 0, 3); got != "" {
		t.Fatalf("a line over budget gave %q", got)
	}
}

func TestIdentifiers(t *testing.T) {
	got := strings.Join(identifiers("x := foo.Bar(baz, 12, foo)"), " ")
	if got != "foo baz Bar" {
		t.Fatalf("%q", got)
	}
}

// A single-line suggestion ends at its first line; a multi-line one at
// maxLines or where it repeats the code after the cursor; what the editor
// already has after the cursor is not suggested again.
func TestCollector(t *testing.T) {
	cases := []struct {
		after  string
		chunks []string
		want   string
		early  bool // the stream stops before its end
	}{
		{after: "x)\n", chunks: []string{"foo", "(1", ")\nbar"}, want: "foo(1)", early: true},
		{after: "\n}\n", chunks: []string{"a\n", "b\n", "c\n", "d\n"}, want: "a\nb\nc", early: true},
		{after: "\n\treturn x\n}\n", chunks: []string{"x++\n", "\treturn x\n", "}\n"}, want: "x++", early: true},
		{after: ")\n", chunks: []string{"a, b)"}, want: "a, b"},
		{after: "\n", chunks: []string{"```go\n", "x := 1\n", "```"}, want: "x := 1"},
		{after: "x\n", chunks: []string{strings.Repeat("y", 20<<10), "z"}, want: strings.Repeat("y", maxAnswer), early: true},
	}
	for _, c := range cases {
		col := &collector{shape: shapeAt(c.after, 3)}
		stopped := false
		for _, ch := range c.chunks {
			if !col.add(ch) {
				stopped = true
				break
			}
		}
		if got := col.result(); got != c.want || stopped != c.early {
			t.Errorf("after %q chunks %q: %q (stopped %v), want %q (%v)", c.after, c.chunks, got, stopped, c.want, c.early)
		}
	}
}
