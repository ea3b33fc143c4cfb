package completion

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkAssemble is the context assembly of one request at the end of
// a 5,000-line buffer with eight other open buffers.
func BenchmarkAssemble(b *testing.B) {
	var s strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&s, "\tm := helper%d(n) + %d // line %d\n", i%50, i, i)
	}
	text := s.String()
	root := b.TempDir()
	req := &Request{Doc: filepath.Join(root, "big.go"), Root: root, Before: text[:len(text)/2], After: text[len(text)/2:]}
	for i := range 8 {
		req.Open = append(req.Open, OpenFile{Path: filepath.Join(root, fmt.Sprintf("f%d.go", i)), Text: text, At: len(text) / 2})
	}
	allowed := func(string) bool { return true }
	b.ReportAllocs()
	for b.Loop() {
		assemble(req, DefaultBudget(), allowed, Chunk{}, 64)
	}
}
