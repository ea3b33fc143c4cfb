package edits

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// pieces are the awkward things texts are built from: every kind of line
// break, a surrogate-pair emoji, a base letter with a combining accent, CJK,
// invalid and truncated UTF-8, and plain ASCII.
var pieces = []string{
	"a", "b", "c", "foo", " ", "\t", "\n", "\n", "\r\n", "\r\n", "\r", "😀", "👩‍💻",
	"e\u0301", "\u0301", "中文", "字", "\xff", "\xe2\x82", "\xf0\x9f", "\ufffd", "}\n",
}

func randomText(r *rand.Rand, max int) string {
	var b strings.Builder
	for range r.IntN(max + 1) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// mutate changes a few places in s so that the pair shares most of its text,
// as real edits do; sometimes it cuts through a rune or a "\r\n".
func mutate(r *rand.Rand, s string) string {
	for range r.IntN(4) + 1 {
		i := r.IntN(len(s) + 1)
		j := min(len(s), i+r.IntN(6))
		switch r.IntN(3) {
		case 0:
			s = s[:i] + randomText(r, 3) + s[i:]
		case 1:
			s = s[:i] + s[j:]
		default:
			s = s[:i] + randomText(r, 3) + s[j:]
		}
	}
	return s
}

var encodings = []Encoding{UTF8, UTF16, UTF32}

// checkRoundTrip asserts everything TextEdits promises for one pair.
func checkRoundTrip(t *testing.T, old, new string) {
	t.Helper()
	for _, enc := range encodings {
		es := TextEdits(old, new, enc)
		got, err := Apply(old, es, enc)
		if err != nil {
			t.Fatalf("%s: Apply(%q, %v): %v", enc, old, es, err)
		}
		if got != new {
			t.Fatalf("%s: Apply(%q, TextEdits(..., %q)) = %q\nedits: %+v", enc, old, new, got, es)
		}
		if old == new && len(es) != 0 {
			t.Fatalf("%s: equal texts gave edits %+v", enc, es)
		}
		m := NewMapper(old, enc)
		prevEnd := -1
		for _, e := range es {
			start, end, err := m.Offsets(e.Range)
			if err != nil {
				t.Fatalf("%s: edit %+v: %v", enc, e, err)
			}
			if start <= prevEnd {
				t.Fatalf("%s: edits overlap, touch or are unsorted: %+v", enc, es)
			}
			prevEnd = end
			if start == end && e.NewText == "" {
				t.Fatalf("%s: empty edit %+v", enc, e)
			}
			for _, off := range []int{start, end} {
				if splitsUnit(old, off) {
					t.Fatalf("%s: edit %+v has a boundary inside a rune or CRLF at byte %d of %q", enc, e, off, old)
				}
				if p, _ := m.Position(off); p != e.Range.Start && p != e.Range.End {
					t.Fatalf("%s: byte %d maps to %v, not an end of %v", enc, off, p, e.Range)
				}
			}
		}
	}
}

// splitsUnit reports whether byte offset i falls inside a "\r\n" or inside
// a rune of s (decoding from the start, bad bytes one unit each).
func splitsUnit(s string, i int) bool {
	if i > 0 && i < len(s) && s[i-1] == '\r' && s[i] == '\n' {
		return true
	}
	for j := 0; j < len(s); {
		if j == i {
			return false
		}
		_, size := utf8.DecodeRuneInString(s[j:])
		if j < i && i < j+size {
			return true
		}
		j += size
	}
	return false
}

func TestTextEditsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 6))
	for range 4000 {
		old := randomText(r, 30)
		new := mutate(r, old)
		if r.IntN(8) == 0 {
			new = randomText(r, 30)
		}
		checkRoundTrip(t, old, new)
	}
}

func FuzzTextEdits(f *testing.F) {
	f.Add("a\r\nb\n", "a\nb\r\n")
	f.Add("😀x\r", "😀y\r\n")
	f.Add("e\u0301\xff", "e\u0300\xfe")
	f.Add("", "中文\n")
	f.Add("no newline", "no newline\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		checkRoundTrip(t, old, new)
	})
}

// Apply is the tests' reference for a WorkspaceEdit: every range refers to
// the original text, ranges must not overlap, and inserts at the same place
// go in the order given.
func Apply(text string, edits []TextEdit, enc Encoding) (string, error) {
	type replacement struct {
		start, end int
		text       string
	}
	m := NewMapper(text, enc)
	reps := make([]replacement, len(edits))
	for i, e := range edits {
		start, end, err := m.Offsets(e.Range)
		if err != nil {
			return "", fmt.Errorf("edit %d (%v): %w", i, e.Range, err)
		}
		reps[i] = replacement{start, end, e.NewText}
	}
	slices.SortStableFunc(reps, func(a, b replacement) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end))
	})
	var b strings.Builder
	last := 0
	for i, r := range reps {
		if i > 0 && r.start < reps[i-1].end {
			return "", fmt.Errorf("edits %d and %d overlap", i-1, i)
		}
		b.WriteString(text[last:r.start])
		b.WriteString(r.text)
		last = r.end
	}
	b.WriteString(text[last:])
	return b.String(), nil
}
