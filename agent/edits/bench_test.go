package edits

import (
	"fmt"
	"strings"
	"testing"
)

// sourceFile is a 5,000-line Go-like file, non-ASCII in places so the
// UTF-16 counting is exercised.
func sourceFile() string {
	var b strings.Builder
	for i := range 5000 {
		switch i % 10 {
		case 0:
			fmt.Fprintf(&b, "func f%d(x int) int { // 説明 %d\n", i, i)
		case 9:
			b.WriteString("}\n")
		default:
			fmt.Fprintf(&b, "\tx = x*%d + %d // 😀 step\n", i, i%7)
		}
	}
	return b.String()
}

// editedIn50Places changes one line in every hundredth.
func editedIn50Places(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i := 55; i < len(lines); i += 100 {
		lines[i] = strings.Replace(lines[i], "step", "jump", 1)
	}
	return strings.Join(lines, "")
}

func BenchmarkTextEdits5000Lines50Edits(b *testing.B) {
	old := sourceFile()
	new := editedIn50Places(old)
	if n := len(TextEdits(old, new, UTF16)); n != 50 {
		b.Fatalf("%d edits, want 50", n)
	}
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		TextEdits(old, new, UTF16)
	}
}

func BenchmarkNewMapper5000Lines(b *testing.B) {
	text := sourceFile()
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		NewMapper(text, UTF16)
	}
}
