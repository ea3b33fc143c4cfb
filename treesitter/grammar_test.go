package treesitter

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/tandemhq/tandem/treesitter/internal/grammars"
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
		g, _, _, err := l.load()
		took := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if g.SymbolCount() == 0 {
			t.Fatalf("%s: the grammar has no symbols", l.Name)
		}
		if again, _, _, _ := l.load(); again != g {
			t.Errorf("%s: a second load made another grammar", l.Name)
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

// TestGrammarLoadErrorIsAnError: a grammar whose tables cannot be unpacked
// (grammars.ErrBigEndian on such a machine) fails each parse with the
// reason instead of crashing the process.
func TestGrammarLoadErrorIsAnError(t *testing.T) {
	l := &Language{Name: "broken", spec: goSpec, grammar: func() (*sitter.Language, error) {
		return nil, grammars.ErrBigEndian
	}}
	for range 2 {
		_, err := Definitions(l, []byte("package p\n"))
		if !errors.Is(err, grammars.ErrBigEndian) || !strings.Contains(err.Error(), "broken grammar") {
			t.Fatalf("Definitions = %v, want the grammar's load error", err)
		}
	}
}
