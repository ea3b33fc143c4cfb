package treesitter

import (
	"os"
	"testing"
	"time"
)

// TestEveryGrammarLoads unpacks each registered grammar (its tables are
// stored compressed, internal/grammars) and parses the language's sample:
// a table unpacked wrong would fail the parse or lose its definitions. Run
// alone (-run TestEveryGrammarLoads -v), the log gives each grammar's
// one-time unpacking cost.
func TestEveryGrammarLoads(t *testing.T) {
	sample := map[string]string{}
	for _, path := range samples(t) {
		if l := ForPath(path); l != nil {
			sample[l.Name] = path
		}
	}
	p := NewParser()
	defer p.Close()
	for _, l := range Languages() {
		start := time.Now()
		g := l.grammar()
		took := time.Since(start)
		if g == nil || g.SymbolCount() == 0 {
			t.Fatalf("%s: the grammar has no symbols", l.Name)
		}
		if again := l.grammar(); again != g {
			t.Errorf("%s: a second call unpacked the grammar again", l.Name)
		}
		t.Logf("%-10s unpacked in %v", l.Name, took)

		path, ok := sample[l.Name]
		if !ok {
			t.Errorf("%s has no sample under testdata/defs", l.Name)
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defs, err := p.Definitions(l, src)
		if err != nil {
			t.Errorf("%s: %v", path, err)
		}
		if len(defs) == 0 {
			t.Errorf("%s: no definitions", path)
		}
	}
}
