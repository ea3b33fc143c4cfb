package tools

import (
	"fmt"
	"strings"
	"testing"
)

func TestClosestWindow(t *testing.T) {
	file := strings.Split("package x\n\nfunc a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 2\n}\n", "\n")
	start, score := closestWindow(file, []string{"func b() {", "  return 3", "}"})
	if start != 6 || score < 0.8 {
		t.Errorf("start %d score %.2f, want 6 and a high score", start, score)
	}
	if _, score := closestWindow(file, []string{"zzzzqqqq"}); score > 0.1 {
		t.Errorf("unrelated text scored %.2f", score)
	}
	// A long file takes the pruned path and still finds the place.
	var sb strings.Builder
	for i := 0; i < 30000; i++ {
		fmt.Fprintf(&sb, "\tv%d := f(%d)\n", i, i)
	}
	long := strings.Split(sb.String(), "\n")
	old := append([]string(nil), long[20000:20020]...)
	old[0], old[10] = "  v20000 := f(20000) // tweaked", "something else entirely"
	if start, _ := closestWindow(long, old); start != 20000 {
		t.Errorf("pruned search found %d, want 20000", start)
	}
	if d := dice(bigrams("}"), bigrams("}")); d != 1 {
		t.Errorf("dice of equal one-byte lines = %v", d)
	}
}

// The closest-lines search on a long file must stay quick (it runs on
// every failed edit).
func BenchmarkClosestWindow(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&sb, "\tvalue%d := compute(%d, \"label %d\")\n", i, i*7, i)
	}
	file := strings.Split(sb.String(), "\n")
	old := append([]string(nil), file[12345:12375]...)
	old[3] = "changed"
	if start, _ := closestWindow(file, old); start != 12345 {
		b.Fatalf("closest window at %d, want 12345", start)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		closestWindow(file, old)
	}
}
