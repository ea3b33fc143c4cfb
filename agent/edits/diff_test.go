package edits

import (
	"strings"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
)

func TestLargeBlockReplacedWhole(t *testing.T) {
	// A changed block past refineLimit is not diffed by character: it
	// becomes one edit, trimmed of what both sides share at its ends.
	old := "keep\n" + strings.Repeat("abcdefgh\n", refineLimit/8) + "keep\n"
	new := "keep\n" + strings.Repeat("hgfedcba\n", refineLimit/8) + "keep\n"
	es := TextEdits(old, new, UTF16)
	if len(es) != 1 {
		t.Fatalf("%d edits, want 1", len(es))
	}
	want := Range{Start: pos(1, 0), End: pos(uint32(refineLimit/8), 8)}
	if es[0].Range != want {
		t.Errorf("range %v, want %v", es[0].Range, want)
	}
	if got, err := Apply(old, es, UTF16); err != nil || got != new {
		t.Errorf("Apply did not give new: %v", err)
	}
}

func TestTrimmedRuns(t *testing.T) {
	// The fallback when lines cannot all get a rune of their own.
	const (
		eq  = diffmatchpatch.DiffEqual
		del = diffmatchpatch.DiffDelete
		ins = diffmatchpatch.DiffInsert
	)
	tests := []struct {
		old, new string
		want     []lineRun
	}{
		{"a\nb\nc\n", "a\nx\nc\n", []lineRun{{eq, 1}, {del, 1}, {ins, 1}, {eq, 1}}},
		{"a\n", "a\nb\n", []lineRun{{eq, 1}, {del, 0}, {ins, 1}, {eq, 0}}},
		{"a\na\n", "a\n", []lineRun{{eq, 1}, {del, 1}, {ins, 0}, {eq, 0}}},
	}
	for _, tt := range tests {
		got := trimmedRuns(tt.old, tt.new, lineBounds(tt.old), lineBounds(tt.new))
		if len(got) != len(tt.want) {
			t.Fatalf("trimmedRuns(%q, %q) = %v, want %v", tt.old, tt.new, got, tt.want)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("trimmedRuns(%q, %q) = %v, want %v", tt.old, tt.new, got, tt.want)
				break
			}
		}
	}
}

func TestTokensSkipSurrogates(t *testing.T) {
	// A surrogate would turn into U+FFFD inside go-diff and two lines
	// would compare equal.
	tok := newTokens(0)
	tok.next = 0xD7FF
	a, _ := tok.id("x")
	b, _ := tok.id("y")
	if a != 0xD7FF || b != 0xE000 {
		t.Errorf("ids %#x %#x, want 0xd7ff 0xe000", a, b)
	}
	tok.next = 0x10FFFF + 1
	if _, ok := tok.id("z"); ok {
		t.Error("id past the last rune succeeded")
	}
}
