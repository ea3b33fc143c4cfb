package treesitter

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// checkInvariants is what every extraction must satisfy on any input.
func checkInvariants(t *testing.T, lang *Language, src []byte, defs []Definition) {
	t.Helper()
	lines := bytes.Count(src, []byte("\n")) + 1
	for _, d := range defs {
		if d.Name == "" || !utf8.ValidString(d.Name) || !utf8.ValidString(d.Signature) || !utf8.ValidString(d.Parent) {
			t.Fatalf("%s: bad text in %+v", lang.Name, d)
		}
		if len(d.Signature) > MaxSignature || strings.Contains(d.Signature, "\n") {
			t.Fatalf("%s: signature not one capped line: %q", lang.Name, d.Signature)
		}
		if d.Start < 1 || d.End < d.Start || d.End > lines {
			t.Fatalf("%s: lines %d-%d outside 1-%d: %+v", lang.Name, d.Start, d.End, lines, d)
		}
		if d.Depth < 0 || d.Depth > maxDepth+1 {
			t.Fatalf("%s: depth %d: %+v", lang.Name, d.Depth, d)
		}
	}
}

func FuzzDefinitions(f *testing.F) {
	langs := Languages()
	for _, path := range samples(f) {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		lang := ForPath(path)
		for i, l := range langs {
			if l == lang {
				f.Add(uint8(i), src)
				// Truncated and corrupted variants seed the broken-input paths.
				f.Add(uint8(i), src[:len(src)/2])
				f.Add(uint8(i), append(bytes.Clone(src[:len(src)/3]), 0xff, 0xfe, '{', '\n'))
			}
		}
	}
	for i := range langs {
		f.Add(uint8(i), []byte("\xff\xfe\x00class \xc3( def func fn {{{"))
		f.Add(uint8(i), []byte(""))
	}
	f.Fuzz(func(t *testing.T, which uint8, src []byte) {
		lang := langs[int(which)%len(langs)]
		start := time.Now()
		p := NewParser()
		defer p.Close()
		defs, refs, err := p.DefinitionsAndRefs(lang, src)
		// A grammar may loop on garbage; the budget must stop it, reported.
		if errors.Is(err, ErrTimeout) {
			if took := time.Since(start); took > parseBudget(len(src))+5*time.Second {
				t.Fatalf("%s: a parse with a budget of %v ran %v", lang.Name, parseBudget(len(src)), took)
			}
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", lang.Name, err)
		}
		checkInvariants(t, lang, src, defs)
		for _, r := range refs {
			if len(r) < minRefLen || !bytes.Contains(src, []byte(r)) {
				t.Fatalf("%s: reference %q is not a name from the source", lang.Name, r)
			}
		}
	})
}

// TestRunawayParseStops: the fuzzer found a small input the Swift grammar
// parses for as long as it is allowed to. It must end within the budget for
// its size, with ErrTimeout or (should a grammar update fix it) a result.
func TestRunawayParseStops(t *testing.T) {
	src := []byte("package app\n\ntramt Shape {\n  def area: Double\n}\n\ncase class Circle(\xd0: Double) extends Shape {\n  val pi = 3.14\n  def area: Double = ")
	start := time.Now()
	_, err := Definitions(ByName("swift"), src)
	took := time.Since(start)
	if err != nil && !errors.Is(err, ErrTimeout) {
		t.Fatal(err)
	}
	if limit := parseBudget(len(src)) + 5*time.Second; took > limit {
		t.Fatalf("parse ran %v, over %v", took, limit)
	}
	t.Logf("err=%v after %v", err, took)
}

func TestInvalidUTF8Names(t *testing.T) {
	src := []byte("package p\n\nfunc \xffbad() {}\n\ntype T\xfe struct{}\n")
	defs, err := Definitions(ByName("go"), src)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, ByName("go"), src, defs)
}

func TestTooLarge(t *testing.T) {
	src := bytes.Repeat([]byte("var x = 1;\n"), MaxSource/10)
	_, err := Definitions(ByName("javascript"), src)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

func TestSignatureCapped(t *testing.T) {
	src := []byte("function f(" + strings.Repeat("αβγ, ", 200) + ") {}\n")
	defs, err := Definitions(ByName("javascript"), src)
	if err != nil || len(defs) != 1 {
		t.Fatalf("defs=%v err=%v", defs, err)
	}
	checkInvariants(t, ByName("javascript"), src, defs)
}

// TestBashHighCodePointAfterBrace: the bash grammar's scanner indexes C's
// isdigit table with the character after `{`; a large code point there
// crashed the process. Definitions after it are found, named from the
// real source.
func TestBashHighCodePointAfterBrace(t *testing.T) {
	src := []byte("echo {\U00075cbc0 {\U000f02a2..\n\nfunction déjà_vu() {\n  echo \"{\U0001F600}\"\n}\n")
	defs, err := Definitions(ByName("bash"), src)
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 1 || defs[0].Name != "déjà_vu" || defs[0].Start != 3 || defs[0].End != 5 {
		t.Fatalf("defs = %+v", defs)
	}
	checkInvariants(t, ByName("bash"), src, defs)
}
